/**
 * Verify e-mail (/verify-email?token=...). The screen loads on first visit:
 * screens/VerifyEmailScreen.tsx.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';
import { optionalString } from './search';

export const verifyEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/verify-email',
  beforeLoad: guard('public'),
  validateSearch: (search: Record<string, unknown>) => ({ token: optionalString(search.token) }),
  component: lazyRouteComponent(() => import('../screens/VerifyEmailScreen'), 'VerifyEmailScreen'),
});
