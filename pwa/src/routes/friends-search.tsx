/**
 * Friend search (/friends-search, dark). The screen loads on first visit:
 * screens/FriendsSearchScreen.tsx.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const friendsSearchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/friends-search',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(
    () => import('../screens/FriendsSearchScreen'),
    'FriendsSearchRouteScreen',
  ),
});
