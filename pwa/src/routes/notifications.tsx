import { createRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Notifications (/notifications). */
export const notificationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/notifications',
  beforeLoad: guard('member'),
  component: () => (
    <ScreenPlaceholder
      title="Notifications"
      purpose="Friend requests, anchor requests and the latest pings from your friends."
    />
  ),
});
