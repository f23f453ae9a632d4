import { createRoute } from '@tanstack/react-router';
import { PrivacyScreen } from '../components/profile/PrivacyScreen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Privacy Settings (/privacy-settings): public or private profile. */
export const privacySettingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/privacy-settings',
  beforeLoad: guard('member-told'),
  component: PrivacyScreen,
});
