/** Activity (/activity). The screen loads on first visit: screens/ActivityScreen.tsx. */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const activityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/activity',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(() => import('../screens/ActivityScreen'), 'ActivityRouteScreen'),
});
