/**
 * Admin Dashboard (/admin): every figure of GET /api/admin/metrics, refreshed every 30 s while
 * the page is visible and kept in the Dexie cache (shown offline with its time), with the last
 * 30 days as charts (components/admin/AdminTrends.tsx). The server
 * decides who is an admin; a 403 shows 'Access denied. Admin privileges required.'
 */
import { AdminMetrics, POLL_MS } from '@pingme/shared';
import { useSession } from '../stores';
import { FreshnessNote } from '../components/analytics/FreshnessNote';
import { NoAnswerYet } from '../components/analytics/NoAnswerYet';
import { errorStatus, useCachedAnswer } from '../components/analytics/useCachedAnswer';
import { ButtonLink } from '../components/ButtonLink';
import { cx } from '../components/cx';
import { LockIcon } from '../components/icons';
import { Screen } from '../components/Screen';
import { AdminTrends } from '../components/admin/AdminTrends';
import { OpenReports } from '../components/admin/OpenReports';
import '../styles/admin.css';

export const ACCESS_DENIED = 'Access denied. Admin privileges required.';

type Figure = [label: string, value: number | string];

/** The dashboard's figures, grouped as on screen. */
export function adminFigures(
  m: AdminMetrics,
): Record<'overview' | 'signups' | 'activity', Figure[]> {
  return {
    overview: [
      ['Total Users', m.totalUsers],
      ['Total Pings', m.totalPings],
      ['Custom Prompts', m.customPrompts],
      ['Friendships', m.totalFriendships],
      ['Active This Week', m.activeUsersWeek],
      ['New This Week', m.newUsers.week],
    ],
    signups: [
      ['Today', m.newUsers.today],
      ['This week', m.newUsers.week],
      ['This month', m.newUsers.month],
    ],
    activity: [
      ['Pending Friend Requests', m.pendingRequests],
      ['Custom Prompts Created', m.customPrompts],
      ['Active Users (7 days)', m.activeUsersWeek],
      ['Pings sent today', m.pingsToday],
      ['New users today', m.newUsers.today],
      ['Average pings per user', m.averagePingsPerUser.toFixed(1)],
    ],
  };
}

export function AdminScreen() {
  const meId = useSession((s) => s.user?.id);
  const answer = useCachedAnswer({
    cacheKey: `admin-metrics:${meId ?? ''}`,
    path: '/api/admin/metrics',
    schema: AdminMetrics,
    pollMs: POLL_MS.adminMetrics,
    enabled: !!meId,
  });
  const denied = errorStatus(answer.error) === 403;

  let body;
  if (denied) {
    body = (
      <section className="card adm-denied" role="alert">
        <span className="adm-denied__icon">
          <LockIcon />
        </span>
        <p>{ACCESS_DENIED}</p>
        <ButtonLink to="/" variant="secondary" size="sm">
          Go Home
        </ButtonLink>
      </section>
    );
  } else if (!answer.data) {
    body = (
      <NoAnswerYet
        status={answer.status}
        className="adm-state"
        loading="Loading metrics…"
        what="Metrics"
      />
    );
  } else {
    const f = adminFigures(answer.data);
    body = (
      <>
        <FreshnessNote
          computedAt={answer.computedAt}
          offline={answer.offline}
          failed={!!answer.error}
        />
        <FigureGrid id="adm-overview" title="Overview" figures={f.overview} big />
        <FigureGrid id="adm-signups" title="New sign-ups" figures={f.signups} three />
        <FigureGrid id="adm-activity" title="Activity" figures={f.activity} />
        <AdminTrends daily={answer.data.daily} />
      </>
    );
  }

  return (
    <Screen title="Admin Dashboard" subtitle="PingMe at a glance" className="adm">
      {body}
      {!denied && <OpenReports />}
    </Screen>
  );
}

function FigureGrid({
  id,
  title,
  figures,
  big = false,
  three = false,
}: {
  id: string;
  title: string;
  figures: Figure[];
  big?: boolean;
  /** Three figures side by side at every width. */
  three?: boolean;
}) {
  return (
    <section className="adm-section" aria-labelledby={id}>
      <h2 id={id} className="adm-section__title">
        {title}
      </h2>
      <dl className={cx('adm-grid', big && 'adm-grid--big', three && 'adm-grid--three')}>
        {figures.map(([label, value]) => (
          <div key={label} className="card adm-figure" data-testid={`figure-${label}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
