/** Your profile (/profile): the extended or the simple view of yourself (spec section 2). */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile',
  beforeLoad: guard('member-told'),
  // Loads on first visit: screens/ProfileScreen.tsx.
  component: lazyRouteComponent(() => import('../screens/ProfileScreen'), 'OwnProfileScreen'),
});
