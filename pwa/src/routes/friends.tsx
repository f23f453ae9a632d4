/** Friends (/friends). The screen loads on first visit: screens/FriendsScreen.tsx. */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const friendsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/friends',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(() => import('../screens/FriendsScreen'), 'FriendsRouteScreen'),
});
