import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Analytics (/analytics): ping analytics and friendship energy. Loads on first visit. */
export const analyticsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/analytics',
  beforeLoad: guard('member-analytics'),
  component: lazyRouteComponent(() => import('../screens/AnalyticsScreen'), 'AnalyticsScreen'),
});
