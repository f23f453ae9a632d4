/**
 * Notifications (/notifications). The screen loads on first visit:
 * screens/NotificationsScreen.tsx.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const notificationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/notifications',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(
    () => import('../screens/NotificationsScreen'),
    'NotificationsRouteScreen',
  ),
});
