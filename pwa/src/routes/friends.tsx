/** Friends (/friends). The screen loads on first visit: components/friends/FriendsScreen.tsx. */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const friendsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/friends',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(
    () => import('../components/friends/FriendsScreen'),
    'FriendsRouteScreen',
  ),
});
