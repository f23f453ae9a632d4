/**
 * Someone's profile (/profile/{userId}): full for yourself and friends, name, avatar and counts
 * with a lock for anyone else (spec sections 2 and 6).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const profileUserRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile/$userId',
  beforeLoad: guard('member-told'),
  // Loads on first visit: screens/ProfileScreen.tsx.
  component: lazyRouteComponent(() => import('../screens/ProfileScreen'), 'ProfileUserScreen'),
});
