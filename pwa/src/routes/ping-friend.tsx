import { createRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Send a ping to one friend (/ping-friend/{friendId}). */
export const pingFriendRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/ping-friend/$friendId',
  beforeLoad: guard('member'),
  component: () => (
    <ScreenPlaceholder
      title="Send a Ping"
      purpose="Pick a prompt or write a custom ping for this friend, and send it with one tap."
    />
  ),
});
