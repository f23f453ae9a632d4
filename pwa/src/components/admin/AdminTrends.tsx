/** The admin dashboard's 30-day trends (GET /api/admin/metrics `daily`, UTC days) as charts. */
import type { AdminMetrics } from '@pingme/shared';
import { useMemo } from 'react';
import { DailyChart } from '../charts/DailyChart';

export function AdminTrends({ daily }: { daily: AdminMetrics['daily'] }) {
  const days = useMemo(() => daily.map((d) => d.day), [daily]);
  const charts = useMemo(
    () => [
      {
        id: 'adm-trend-signups',
        title: 'Sign-ups per day',
        label: 'Sign-ups',
        colour: '#c2410c',
        values: daily.map((d) => d.signUps),
      },
      {
        id: 'adm-trend-pings',
        title: 'Pings per day',
        label: 'Pings',
        colour: '#be185d',
        values: daily.map((d) => d.pings),
      },
      {
        id: 'adm-trend-active',
        title: 'Active people per day',
        label: 'Active people',
        colour: '#0f766e',
        values: daily.map((d) => d.activePeople),
      },
    ],
    [daily],
  );
  return (
    <section className="adm-section" aria-labelledby="adm-trends">
      <h2 id="adm-trends" className="adm-section__title">
        Last 30 days
      </h2>
      <div className="charts adm-charts">
        {charts.map((c) => (
          <DailyChart
            key={c.id}
            id={c.id}
            title={c.title}
            days={days}
            series={[{ label: c.label, values: c.values, colour: c.colour }]}
          />
        ))}
      </div>
    </section>
  );
}
