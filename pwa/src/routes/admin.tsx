import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Admin Dashboard (/admin): the server decides who may see it. Loads on first visit. */
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(() => import('../screens/AdminScreen'), 'AdminScreen'),
});
