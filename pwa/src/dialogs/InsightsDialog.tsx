/**
 * Friendship insights (spec: "Friendship insights dialog"): GET /api/analytics/friendship/{id}
 * (the last 30 days), kept with writeCache and shown offline with the time it was computed.
 * Loaded lazily (React.lazy) so the chart is not part of the first download.
 */
import {
  FriendshipInsights,
  displayName,
  relativeTime,
  strengthLabel,
  type UserSummary,
} from '@pingme/shared';
import { useEffect, useState } from 'react';
import { api } from '../api';
import { Dialog } from '../components/Dialog';
import { fetchOrCached } from '../components/common/fetchOrCached';
import { InteractionChart } from '../components/friends/InteractionChart';
import '../styles/friends.css';

export interface InsightsDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  friend: UserSummary;
}

export default function InsightsDialog({ open, onOpenChange, friend }: InsightsDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Friendship insights"
      description={`You and ${displayName(friend)}, over the last 30 days.`}
    >
      {open && <InsightsBody friendId={friend.id} />}
    </Dialog>
  );
}

type State =
  | { kind: 'loading' }
  | { kind: 'error' }
  | { kind: 'ready'; insights: FriendshipInsights; cachedAt: string | null };

const insightsCacheKey = (friendId: string) => `insights:${friendId}`;

function InsightsBody({ friendId }: { friendId: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    void fetchOrCached(
      insightsCacheKey(friendId),
      () => api.get(`/api/analytics/friendship/${friendId}`, { schema: FriendshipInsights }),
      { computedAt: (insights) => insights.computedAt },
    ).then(
      ({ value: insights, cachedAt }) => live && setState({ kind: 'ready', insights, cachedAt }),
      () => live && setState({ kind: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [friendId]);

  if (state.kind === 'loading') {
    return (
      <div className="fr-insights__loading" role="status">
        <span className="spinner spinner--lg" aria-hidden="true" />
        <span className="visually-hidden">Loading fr-insights</span>
      </div>
    );
  }
  if (state.kind === 'error') {
    return (
      <p className="notice notice--error" role="alert">
        Unable to load friendship insights
      </p>
    );
  }
  const { insights, cachedAt } = state;
  const strength = insights.friendshipStrength;
  return (
    <div className="fr-insights">
      {cachedAt && (
        <p className="fr-insights__offline" role="status">
          Offline: showing insights from {new Date(cachedAt).toLocaleString()}
        </p>
      )}
      <div className="fr-insights__strength">
        <span className="fr-insights__strength-label">{strengthLabel(strength)}</span>
        <span className="fr-insights__dots" role="img" aria-label={`Strength ${strength} of 5`}>
          {[1, 2, 3, 4, 5].map((n) => (
            <span
              key={n}
              className={n <= strength ? 'fr-dot fr-dot--on' : 'fr-dot'}
              aria-hidden="true"
            />
          ))}
        </span>
      </div>
      <dl className="fr-insights__stats">
        <div>
          <dt>Sent</dt>
          <dd>{insights.pingsSentToFriend}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>{insights.pingsReceivedFromFriend}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>{insights.totalPingsExchanged}</dd>
        </div>
      </dl>
      <p className="fr-insights__last">
        Last interaction:{' '}
        <strong>
          {insights.lastInteraction
            ? relativeTime(insights.lastInteraction, Date.now(), 'ping')
            : 'No pings yet'}
        </strong>
      </p>
      <section aria-labelledby="fr-insights-chart">
        <h3 id="fr-insights-chart" className="fr-insights__heading">
          Last 30 days
        </h3>
        <InteractionChart days={insights.interactionHistory} />
      </section>
      <section aria-labelledby="fr-insights-favourites">
        <h3 id="fr-insights-favourites" className="fr-insights__heading">
          Favourite prompts
        </h3>
        {insights.favoritePrompts.length === 0 ? (
          <p className="fr-muted">No prompts exchanged yet.</p>
        ) : (
          <ol className="fr-insights__prompts">
            {insights.favoritePrompts.map((f) => (
              <li key={f.prompt.text}>
                <span aria-hidden="true">{f.prompt.emoji}</span>
                <span className="fr-insights__prompt-text">{f.prompt.text}</span>
                <span className="fr-insights__count">×{f.count}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
