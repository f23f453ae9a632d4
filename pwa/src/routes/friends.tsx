import { createRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Friends (/friends). */
export const friendsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/friends',
  beforeLoad: guard('member'),
  component: () => (
    <ScreenPlaceholder
      title="Friends"
      purpose="Your friends, friend requests you have received and sent, and a search to add people."
    />
  ),
});
