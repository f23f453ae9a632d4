/**
 * The profile screens (/profile and /profile/{userId}); routes/profile.tsx and
 * routes/profile-user.tsx load them on first visit.
 */
import { useParams } from '@tanstack/react-router';
import { ProfileView } from '../components/profile/ProfileView';
import { useSession } from '../stores';

/** Your profile: the extended or the simple view of yourself (spec section 2). */
export function OwnProfileScreen() {
  const meId = useSession((s) => s.user?.id);
  return meId ? <ProfileView userId={meId} /> : null;
}

/** Someone's profile: full for yourself and friends, the locked card for anyone else. */
export function ProfileUserScreen() {
  const { userId } = useParams({ from: '/profile/$userId' });
  // A remount per person, so one profile's state never shows on the next.
  return <ProfileView key={userId} userId={userId} />;
}
