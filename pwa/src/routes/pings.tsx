/** The Ping Library (/pings). The screen loads on first visit: screens/PingLibraryScreen.tsx. */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const pingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pings',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(() => import('../screens/PingLibraryScreen'), 'PingLibraryScreen'),
});
