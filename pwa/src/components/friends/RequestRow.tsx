/** One received friend request: who, when, and Accept / Decline (or the 3 s outcome label). */
import { displayName, relativeTime, type SyncFriendship } from '@pingme/shared';
import type { ReactNode } from 'react';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { useRequestAnswers } from './RequestAnswers';

export function RequestActions({ request }: { request: SyncFriendship }) {
  const { answered, busy, answer } = useRequestAnswers();
  const outcome = answered.get(request.id)?.outcome;
  const name = displayName(request.other);
  if (outcome) {
    return (
      <span
        className={outcome === 'accepted' ? 'fr-pill fr-pill--success' : 'fr-pill fr-pill--muted'}
        role="status"
      >
        {outcome === 'accepted' ? 'Accepted!' : 'Declined'}
      </span>
    );
  }
  const working = busy.has(request.id);
  return (
    <div className="fr-actions">
      <Button size="sm" disabled={working} onClick={() => void answer(request, 'accepted')}>
        Accept<span className="visually-hidden"> {name}</span>
      </Button>
      <Button
        size="sm"
        variant="secondary"
        disabled={working}
        onClick={() => void answer(request, 'declined')}
      >
        Decline<span className="visually-hidden"> {name}</span>
      </Button>
    </div>
  );
}

export interface RequestRowProps {
  request: SyncFriendship;
  /** The line under the name; default: @handle or tagline. */
  detail?: ReactNode;
  /** The right-hand side; default: Accept / Decline. */
  actions?: ReactNode;
}

export function RequestRow({ request, detail, actions }: RequestRowProps) {
  const other = request.other;
  const handle = 'handle' in other && other.handle ? `@${other.handle}` : null;
  return (
    <li className="fr-person">
      <Avatar user={other} size="md" />
      <div className="fr-person__text">
        <span className="fr-person__name">{displayName(other)}</span>
        <span className="fr-person__detail">
          {detail ?? handle ?? other.tagline ?? `Asked ${relativeTime(request.createdAt)}`}
        </span>
      </div>
      {actions ?? <RequestActions request={request} />}
    </li>
  );
}
