/** One friend on /friends: who, the latest mood they shared with you, and three quick actions. */
import { displayName, relativeTime, type Mood, type SyncFriendship } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { ChartIcon, GiftIcon, SmileIcon } from '../icons';
import { isPending } from '../../sync/local-write';

export type FriendAction = 'surprise' | 'mood' | 'fr-insights';

export interface FriendCardProps {
  friendship: SyncFriendship;
  mood: Mood | undefined;
  onAction(action: FriendAction, friendship: SyncFriendship): void;
}

export function FriendCard({ friendship, mood, onAction }: FriendCardProps) {
  const friend = friendship.other;
  const name = displayName(friend);
  return (
    <li className="friend-card">
      <Link
        to="/friend/$friendId"
        params={{ friendId: friendship.otherUserId }}
        className="friend-card__who"
      >
        <Avatar user={friend} size="md" />
        <span className="friend-card__text">
          <span className="friend-card__name">{name}</span>
          {mood ? (
            <span className="friend-card__mood">
              <span aria-hidden="true">{mood.emoji}</span> Feeling {mood.mood}
              {mood.note && <span className="friend-card__note"> · “{mood.note}”</span>}
              <span className="visually-hidden">, {relativeTime(mood.createdAt)}</span>
            </span>
          ) : isPending(friendship) ? (
            <span className="friend-card__mood fr-muted">Adding…</span>
          ) : (
            <span className="friend-card__mood fr-muted">No mood shared yet</span>
          )}
        </span>
      </Link>
      <div className="friend-card__actions">
        <Button size="sm" variant="secondary" onClick={() => onAction('surprise', friendship)}>
          <GiftIcon /> Surprise
          <span className="visually-hidden"> {name}</span>
        </Button>
        <Button size="sm" variant="secondary" onClick={() => onAction('mood', friendship)}>
          <SmileIcon /> Mood
          <span className="visually-hidden"> for {name}</span>
        </Button>
        <Button size="sm" variant="secondary" onClick={() => onAction('fr-insights', friendship)}>
          <ChartIcon /> Insights
          <span className="visually-hidden"> with {name}</span>
        </Button>
      </div>
    </li>
  );
}
