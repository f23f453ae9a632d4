/**
 * When the figures on screen were computed, and whether they are the offline copy. Shared by
 * analytics, energy and the admin dashboard.
 */
import { relativeTime } from '@pingme/shared';
import { useEffect, useState } from 'react';
import { cx } from '../cx';

export function FreshnessNote({
  computedAt,
  offline,
  failed,
}: {
  computedAt: string | undefined;
  offline: boolean;
  /** The last refresh failed for another reason (the server answered an error). */
  failed?: boolean;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (!computedAt) return null;
  const when = relativeTime(computedAt, now);
  const stale = offline || failed;
  return (
    <p className={cx('freshness', stale && 'freshness--stale')} role="status">
      {offline
        ? `Offline · showing figures from ${when}`
        : failed
          ? `Could not refresh · showing figures from ${when}`
          : `Updated ${when}`}
    </p>
  );
}
