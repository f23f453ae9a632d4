/** On a friend's profile: send them a ping, or open your friendship (stats and shared pings). */
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../Button';

export function FriendActions({ friendId }: { friendId: string }) {
  return (
    <div className="pf-friend-actions">
      <Link
        to="/ping-friend/$friendId"
        params={{ friendId }}
        className={buttonClass('primary', 'sm')}
      >
        Send a Ping
      </Link>
      <Link to="/friend/$friendId" params={{ friendId }} className={buttonClass('secondary', 'sm')}>
        Your friendship
      </Link>
    </div>
  );
}
