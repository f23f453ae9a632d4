import { createRoute } from '@tanstack/react-router';
import { AnalyticsScreen } from '../components/analytics/AnalyticsScreen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Analytics (/analytics): ping analytics and friendship energy. */
export const analyticsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/analytics',
  beforeLoad: guard('member-analytics'),
  component: AnalyticsScreen,
});
