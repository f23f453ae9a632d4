import { createRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Admin Dashboard (/admin). */
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin',
  beforeLoad: guard('member'),
  component: () => (
    <ScreenPlaceholder
      title="Admin Dashboard"
      purpose="Users, pings, friendships and sign-ups at a glance, for admins."
    />
  ),
});
