/** The inbox (/inbox): every received ping. The screen loads on first visit: screens/InboxScreen.tsx. */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const inboxRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/inbox',
  beforeLoad: guard('member'),
  component: lazyRouteComponent(() => import('../screens/InboxScreen'), 'InboxScreen'),
});
