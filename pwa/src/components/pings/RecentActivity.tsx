/**
 * Home's 'Recent Activity': the 2 latest pings, sent or received, as cards (a sent one shows
 * 'Sending…' while it waits, then the friend's reaction), and 'View All' to /activity.
 */
import { LIMITS } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { PingCard } from './PingCard';
import { useLatestPings } from './usePings';
import '../../styles/pings.css';

export function RecentActivity() {
  const pings = useLatestPings(LIMITS.homeRecentActivities);
  const now = useMinuteClock();
  return (
    <section className="recent-activity" aria-labelledby="recent-activity-title">
      <div className="pings-section__head">
        <h2 id="recent-activity-title" className="pings-section__title">
          Recent Activity
        </h2>
        <Link to="/activity" className="pings-section__link">
          View All
        </Link>
      </div>
      {pings && pings.length === 0 && (
        <p className="recent-activity__empty">No pings yet. Send one from Your Pings above!</p>
      )}
      {pings && pings.length > 0 && (
        <ul className="ping-list">
          {pings.map((p) => (
            <li key={p.id}>
              <PingCard ping={p} now={now} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Re-renders relative times once a minute. */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
