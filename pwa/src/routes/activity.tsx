import { createRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Activity (/activity). */
export const activityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/activity',
  beforeLoad: guard('member'),
  component: () => (
    <ScreenPlaceholder
      title="Activity"
      purpose="Pings you sent and received, milestones, anchors and friend requests."
    />
  ),
});
