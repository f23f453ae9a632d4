import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Privacy Settings (/privacy-settings): public or private profile. Loads on first visit. */
export const privacySettingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/privacy-settings',
  beforeLoad: guard('member-told'),
  component: lazyRouteComponent(() => import('../screens/PrivacyScreen'), 'PrivacyScreen'),
});
