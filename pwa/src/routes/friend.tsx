import { Link, createRoute } from '@tanstack/react-router';
import { buttonClass } from '../components/Button';
import { Screen } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Friend profile (/friend/{friendId}). */
export const friendRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/friend/$friendId',
  beforeLoad: guard('member'),
  component: FriendScreen,
});

function FriendScreen() {
  const { friendId } = friendRoute.useParams();
  return (
    <Screen title="Friend">
      <div className="card card--muted placeholder">
        <p>Your friendship stats and the 5 latest pings you shared.</p>
        <p className="placeholder__note">This screen is being built and arrives in an update.</p>
        <Link to="/ping-friend/$friendId" params={{ friendId }} className={buttonClass('primary')}>
          Send a Ping
        </Link>
      </div>
    </Screen>
  );
}
