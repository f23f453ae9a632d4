/** Your profile (/profile): the extended or the simple view of yourself (spec section 2). */
import { createRoute } from '@tanstack/react-router';
import { ProfileView } from '../components/profile/ProfileView';
import { useSession } from '../stores';
import { rootRoute } from './__root';
import { guard } from './guard';

export const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile',
  beforeLoad: guard('member-told'),
  component: OwnProfileScreen,
});

function OwnProfileScreen() {
  const meId = useSession((s) => s.user?.id);
  return meId ? <ProfileView userId={meId} /> : null;
}
