/**
 * Friend profile (/friend/{friendId}). The screen loads on first visit:
 * screens/FriendProfileScreen.tsx.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const friendRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/friend/$friendId',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(() => import('../screens/FriendProfileScreen'), 'FriendScreen'),
});
