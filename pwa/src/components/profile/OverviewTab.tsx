/**
 * Overview tab: This Week (Sent, Received, top 3 themes), Connections (friends, new this month)
 * and the first 3 Badges. The owner's figures come from GET /api/profile/metrics and /badges; on a
 * friend's profile the week is the pings the two of you shared (the server computes metrics only
 * for the caller) and badges stay their owner's.
 */
import { Badge, LIMITS, ProfileMetrics } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { z } from 'zod';
import { db } from '../../db';
import { useCachedAnswer } from '../analytics/useCachedAnswer';
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
      <section className="card pf-overview-card" aria-labelledby="ov-connections">
        <h3 id="ov-connections" className="pf-overview-card__title">
          Connections
        </h3>
        <dl className="pf-mini-stats">
          <div>
            <dt>Friends</dt>
            <dd>{friends ?? '–'}</dd>
          </div>
          <div>
            <dt>New this month</dt>
            <dd>{m ? m.newConnections : '–'}</dd>
          </div>
        </dl>
      </section>
      <section className="card pf-overview-card" aria-labelledby="ov-badges">
        <h3 id="ov-badges" className="pf-overview-card__title">
          Badges
        </h3>
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
      </section>
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
      <section className="card pf-overview-card" aria-labelledby="ov-connections">
        <h3 id="ov-connections" className="pf-overview-card__title">
          Connections
        </h3>
        <dl className="pf-mini-stats">
          <div>
            <dt>Friends</dt>
            <dd>{friends ?? '–'}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

function WeekCard({ title, week, failed }: { title: string; week?: Week; failed: boolean }) {
  return (
    <section className="card pf-overview-card" aria-labelledby="ov-week">
      <h3 id="ov-week" className="pf-overview-card__title">
        {title}
      </h3>
      <dl className="pf-mini-stats">
        <div>
          <dt>Sent</dt>
          <dd>{week ? week.sent : '–'}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>{week ? week.received : '–'}</dd>
        </div>
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
    </section>
  );
}
