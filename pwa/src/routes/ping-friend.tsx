/**
 * Send a ping to one friend (/ping-friend/{friendId}). The screen loads on first visit:
 * screens/PingFriendScreen.tsx.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const pingFriendRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/ping-friend/$friendId',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(() => import('../screens/PingFriendScreen'), 'PingFriendScreen'),
});
