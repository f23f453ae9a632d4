/**
 * Auth (/auth): Login and Sign Up tabs, the forgot-password dialog, Google sign-in errors. The
 * screen (with Radix Tabs) loads on first visit: screens/AuthScreen.tsx; the landing page's
 * 'Start Connecting' fetches it ahead on hover or touch.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';
import { optionalString } from './search';

export interface AuthSearch {
  /** Set by the server's Google flow when it fails (/auth?error=...). */
  error?: string | undefined;
  /** 'true' after a first-time password was set. */
  welcome?: string | undefined;
  tab?: 'login' | 'signup' | undefined;
}

export const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth',
  beforeLoad: guard('guest'),
  validateSearch: (search: Record<string, unknown>): AuthSearch => ({
    error: optionalString(search.error),
    welcome: optionalString(search.welcome),
    tab: search.tab === 'signup' ? 'signup' : undefined,
  }),
  component: lazyRouteComponent(() => import('../screens/AuthScreen'), 'AuthScreen'),
});
