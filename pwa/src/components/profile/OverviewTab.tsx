/**
 * Overview tab: This Week (Sent, Received, top 3 themes), Connections (friends, new this month)
 * and the first 3 Badges. The owner's figures come from GET /api/profile/metrics and /badges; on a
 * friend's profile the week is the pings the two of you shared (the server computes metrics only
 * for the caller) and badges stay their owner's.
 */
import { Badge, LIMITS, ProfileMetrics } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { db } from '../../db';
import { useCachedAnswer } from '../analytics/useCachedAnswer';
import { MiniStat, ProfileCard } from './ProfileCard';
import { weekTogether } from './profile-rules';

const Badges = z.array(Badge);

interface Week {
  sent: number;
  received: number;
  themes: string[];
}

export function OwnOverview({ meId, friends }: { meId: string; friends: number | null }) {
  const metrics = useCachedAnswer({
    cacheKey: `profile-metrics:${meId}`,
    path: '/api/profile/metrics',
    schema: ProfileMetrics,
  });
  const badges = useCachedAnswer({
    cacheKey: `profile-badges:${meId}`,
    path: '/api/profile/badges',
    schema: Badges,
  });
  const m = metrics.data;
  return (
    <div className="pf-overview">
      <WeekCard
        title="This Week"
        week={m && { sent: m.pingsSent, received: m.pingsReceived, themes: m.topThemes }}
        failed={metrics.status === 'error'}
      />
      <ConnectionsCard friends={friends}>
        <MiniStat label="New this month" value={m?.newConnections} />
      </ConnectionsCard>
      <ProfileCard id="ov-badges" title="Badges">
        {badges.data === undefined ? (
          <p className="profile-muted">
            {badges.status === 'error' ? 'Badges could not be loaded.' : 'Loading…'}
          </p>
        ) : badges.data.length === 0 ? (
          <p className="profile-muted">No badges yet. Send your first ping to earn one.</p>
        ) : (
          <ul className="pf-badge-list">
            {badges.data.slice(0, LIMITS.topBadges).map((b) => (
              <li key={b.id} className="pf-badge-item">
                <span className="pf-badge-item__icon" aria-hidden="true">
                  🏅
                </span>
                <span>
                  <strong>{b.title}</strong>
                  <span className="pf-badge-item__description">{b.description}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </ProfileCard>
    </div>
  );
}

export function FriendOverview({
  meId,
  friendId,
  friends,
}: {
  meId: string;
  friendId: string;
  friends: number | null;
}) {
  const week = useLiveQuery(
    async () => weekTogether(await db.pings.toArray(), meId, friendId),
    [meId, friendId],
  );
  return (
    <div className="pf-overview">
      <WeekCard title="This Week" week={week} failed={false} />
      <ConnectionsCard friends={friends} />
    </div>
  );
}

function WeekCard({ title, week, failed }: { title: string; week?: Week; failed: boolean }) {
  return (
    <ProfileCard id="ov-week" title={title}>
      <dl className="pf-mini-stats">
        <MiniStat label="Sent" value={week?.sent} />
        <MiniStat label="Received" value={week?.received} />
      </dl>
      {failed && !week && <p className="profile-muted">This week’s figures could not be loaded.</p>}
      {week && week.themes.length > 0 && (
        <>
          <h4 className="pf-overview-card__subtitle">Top themes</h4>
          <ol className="pf-theme-list">
            {week.themes.slice(0, LIMITS.topThemes).map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ol>
        </>
      )}
    </ProfileCard>
  );
}

/** How many friends (and, for the owner, more figures given as children). */
function ConnectionsCard({ friends, children }: { friends: number | null; children?: ReactNode }) {
  return (
    <ProfileCard id="ov-connections" title="Connections">
      <dl className="pf-mini-stats">
        <MiniStat label="Friends" value={friends} />
        {children}
      </dl>
    </ProfileCard>
  );
}
