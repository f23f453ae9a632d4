/**
 * Someone's profile (/profile/{userId}): full for yourself and friends, name, avatar and counts
 * with a lock for anyone else (spec sections 2 and 6).
 */
import { createRoute } from '@tanstack/react-router';
import { ProfileView } from '../components/profile/ProfileView';
import { rootRoute } from './__root';
import { guard } from './guard';

export const profileUserRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile/$userId',
  beforeLoad: guard('member-told'),
  component: ProfileUserScreen,
});

function ProfileUserScreen() {
  const { userId } = profileUserRoute.useParams();
  // A remount per person, so one profile's state never shows on the next.
  return <ProfileView key={userId} userId={userId} />;
}
