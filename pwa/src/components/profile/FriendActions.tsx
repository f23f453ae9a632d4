/** On a friend's profile: send them a ping, or open your friendship (stats and shared pings). */
import { ButtonLink } from '../ButtonLink';

export function FriendActions({ friendId }: { friendId: string }) {
  return (
    <div className="pf-friend-actions">
      <ButtonLink to="/ping-friend/$friendId" params={{ friendId }} size="sm">
        Send a Ping
      </ButtonLink>
      <ButtonLink to="/friend/$friendId" params={{ friendId }} variant="secondary" size="sm">
        Your friendship
      </ButtonLink>
    </div>
  );
}
