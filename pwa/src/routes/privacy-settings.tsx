import { createRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Privacy Settings (/privacy-settings). */
export const privacySettingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/privacy-settings',
  beforeLoad: guard('member-told'),
  component: () => (
    <ScreenPlaceholder
      title="Privacy Settings"
      purpose="Choose between a public profile anyone can find and a private one reachable by invite code."
    />
  ),
});
