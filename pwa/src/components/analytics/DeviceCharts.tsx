/**
 * Analytics pictures computed on the device from Dexie (so they work offline): pings sent and
 * received per day over the last 30 days, and the person's mood history (the last mood they
 * shared each day).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { db } from '../../db';
import { DailyChart } from '../charts/DailyChart';
import { countByDay, lastDays, localDay, shortDay } from '../charts/days';
import { MOOD_OPTIONS } from '../friends/moods';

const WINDOW_DAYS = 30;

export function DeviceCharts({ meId }: { meId: string }) {
  const days = useMemo(() => lastDays(WINDOW_DAYS), []);
  const since = useMemo(() => new Date(`${days[0]}T00:00:00`).toISOString(), [days]);
  const pings = useLiveQuery(
    () => db.pings.where('createdAt').aboveOrEqual(since).toArray(),
    [since],
  );
  const moods = useLiveQuery(
    () =>
      db.moods
        .where('createdAt')
        .aboveOrEqual(since)
        .filter((m) => m.userId === meId)
        .toArray(),
    [since, meId],
  );
  const series = useMemo(() => {
    if (!pings) return undefined;
    const sent = pings.filter((p) => p.senderId === meId).map((p) => p.createdAt);
    const got = pings.filter((p) => p.receiverId === meId).map((p) => p.createdAt);
    return [
      { label: 'Sent', values: countByDay(sent, days), colour: '#c2410c' },
      { label: 'Received', values: countByDay(got, days), colour: '#0f766e' },
    ];
  }, [pings, meId, days]);
  const moodByDay = useMemo(() => {
    const byDay = new Map<string, { mood: string; emoji: string; at: string }>();
    for (const m of moods ?? []) {
      const day = localDay(new Date(m.createdAt));
      const seen = byDay.get(day);
      if (!seen || seen.at < m.createdAt)
        byDay.set(day, { mood: m.mood, emoji: m.emoji, at: m.createdAt });
    }
    return byDay;
  }, [moods]);

  return (
    <div className="charts">
      {series && (
        <DailyChart id="an-pings-per-day" title="Pings per day" days={days} series={series} />
      )}
      <section className="card chart" aria-labelledby="an-moods-title" data-testid="mood-history">
        <h2 id="an-moods-title" className="chart__title">
          Your mood history
        </h2>
        <p className="chart__summary">
          {moodByDay.size === 0
            ? 'No moods shared in the last 30 days. Share one from Friends.'
            : `You shared a mood on ${moodByDay.size} of the last ${WINDOW_DAYS} days.`}
        </p>
        <ol className="mood-days" aria-label="Your mood on each of the last 30 days">
          {days.map((d) => {
            const m = moodByDay.get(d);
            const label = MOOD_OPTIONS.find((o) => o.mood === m?.mood)?.label;
            return m ? (
              <li key={d} className="mood-days__day" title={`${shortDay(d)}: ${label}`}>
                <span aria-hidden="true">{m.emoji}</span>
                <span className="visually-hidden">{`${shortDay(d)}: ${label}`}</span>
              </li>
            ) : (
              <li key={d} className="mood-days__day mood-days__day--empty" title={shortDay(d)}>
                <span className="visually-hidden">{`${shortDay(d)}: no mood`}</span>
              </li>
            );
          })}
        </ol>
      </section>
    </div>
  );
}
