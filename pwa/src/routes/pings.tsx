import { createRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Ping Library (/pings). */
export const pingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pings',
  beforeLoad: guard('member'),
  component: () => (
    <ScreenPlaceholder
      title="Ping Library"
      purpose="Your custom prompts and the default ones, ready to assign and send to friends."
    />
  ),
});
