/**
 * Reset password (/reset-password?token=...&welcome=...). The screen loads on first visit:
 * screens/ResetPasswordScreen.tsx.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';
import { optionalString } from './search';

export const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  beforeLoad: guard('public'),
  validateSearch: (search: Record<string, unknown>) => ({
    token: optionalString(search.token),
    welcome: optionalString(search.welcome),
  }),
  component: lazyRouteComponent(
    () => import('../screens/ResetPasswordScreen'),
    'ResetPasswordScreen',
  ),
});
