/**
 * The Analytics tab: Pings Sent, Received, Reactions, Response Rate and the Most Used Prompts,
 * from GET /api/analytics/pings (kept in the Dexie cache, shown offline with its time).
 */
import { LIMITS, PingAnalytics, emojiFor } from '@pingme/shared';
import { FreshnessNote } from './FreshnessNote';
import { NoAnswerYet } from './NoAnswerYet';
import { useCachedAnswer } from './useCachedAnswer';

export function PingAnalyticsTab({ meId }: { meId: string }) {
  const answer = useCachedAnswer({
    cacheKey: `analytics-pings:${meId}`,
    path: '/api/analytics/pings',
    schema: PingAnalytics,
  });
  const a = answer.data;

  if (!a) {
    return (
      <NoAnswerYet
        status={answer.status}
        className="an-state"
        loading="Loading your analytics…"
        what="Analytics"
      />
    );
  }
  const empty = a.totalPingsSent === 0 && a.totalPingsReceived === 0;

  return (
    <div className="an-tab">
      <FreshnessNote
        computedAt={answer.computedAt}
        offline={answer.offline}
        failed={!!answer.error}
      />
      {empty && (
        <p className="card an-empty">No analytics data available yet. Start sending pings!</p>
      )}
      <ul className="an-cards" aria-label="Your pings in numbers">
        <StatCard label="Pings Sent" value={a.totalPingsSent} week={a.pingsSentThisWeek} />
        <StatCard label="Received" value={a.totalPingsReceived} week={a.pingsReceivedThisWeek} />
        <StatCard label="Reactions" value={a.totalReactions} note="given in total" />
        <StatCard label="Response Rate" value={`${a.responseRate}%`} note="of pings you got" />
      </ul>
      <section className="card an-prompts" aria-labelledby="an-prompts-title">
        <h2 id="an-prompts-title" className="card__title card__title--sm">
          Most Used Prompts
        </h2>
        {a.mostUsedPrompts.length === 0 ? (
          <p className="profile-muted">Prompts you send most will show up here.</p>
        ) : (
          <ol className="an-prompt-list">
            {a.mostUsedPrompts.slice(0, LIMITS.topPrompts).map((p, i) => (
              <li key={`${p.prompt.text}-${i}`} className="an-prompt">
                <span className="an-prompt__emoji" aria-hidden="true">
                  {p.prompt.emoji || emojiFor(p.prompt.text)}
                </span>
                <span className="an-prompt__text">{p.prompt.text}</span>
                <span className="an-prompt__count">
                  {p.count} {p.count === 1 ? 'time' : 'times'}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function StatCard({
  label,
  value,
  week,
  note,
}: {
  label: string;
  value: number | string;
  week?: number;
  note?: string;
}) {
  return (
    <li className="card an-card">
      <span className="an-card__label">{label}</span>
      <strong className="an-card__value">{value}</strong>
      <span className="an-card__note">{week !== undefined ? `${week} this week` : note}</span>
    </li>
  );
}
