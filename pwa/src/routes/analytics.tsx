import { createRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Analytics (/analytics). */
export const analyticsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/analytics',
  beforeLoad: guard('member-analytics'),
  component: () => (
    <ScreenPlaceholder
      title="Analytics"
      purpose="How you ping: sent and received this week, reactions, response rate and friendship energy."
    />
  ),
});
