import { createRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Someone's profile (/profile/{userId}): full for friends, name and counts for others. */
export const profileUserRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile/$userId',
  beforeLoad: guard('member-told'),
  component: () => (
    <ScreenPlaceholder
      title="Profile"
      purpose="Their name, photo and counts; friends also see their handle, bio, moments and badges."
    />
  ),
});
