/**
 * Analytics (/analytics): the tabs 'Analytics' and 'Energy' (spec section 2); the Analytics tab
 * ends with pictures computed on the device (pings per day, mood history).
 */
import { useSession } from '../stores';
import { Screen } from '../components/Screen';
import { Tabs } from '../components/Tabs';
import { EnergyTab } from '../components/analytics/EnergyTab';
import { DeviceCharts } from '../components/analytics/DeviceCharts';
import { PingAnalyticsTab } from '../components/analytics/PingAnalyticsTab';
import '../styles/analytics.css';

export function AnalyticsScreen() {
  const meId = useSession((s) => s.user?.id);
  if (!meId) return null;
  return (
    <Screen
      title="Analytics"
      subtitle="How you ping, and how your friendships feel."
      className="an"
    >
      <Tabs
        label="Analytics sections"
        defaultValue="analytics"
        items={[
          {
            value: 'analytics',
            label: 'Analytics',
            content: (
              <>
                <PingAnalyticsTab meId={meId} />
                <DeviceCharts meId={meId} />
              </>
            ),
          },
          { value: 'energy', label: 'Energy', content: <EnergyTab meId={meId} /> },
        ]}
      />
    </Screen>
  );
}
