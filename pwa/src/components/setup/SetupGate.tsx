/**
 * Spec section 6: a signed-in person whose onboardingCompleted is false must finish the setup
 * before using the app. The root layout asks `useNeedsSetup` and shows <SetupScreen> instead of
 * the screen (and no bottom navigation); the URL stays, so an invite link opened before the
 * setup is on screen once it is done.
 */
import type { SyncUser } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db';
import { onSignedOutFlow } from '../../navigation';
import { useSession } from '../../stores';
import { completedSetupHere } from './completed';

export function useNeedsSetup(pathname: string): boolean {
  const user = useSession((s) => (s.status === 'signed-in' ? s.user : null));
  // The device's copy may be a sync ahead of the session's (another tab finished the setup).
  const deviceDone = useLiveQuery(
    async () => {
      if (!user) return false;
      const self = (await db.users.get(user.id)) as SyncUser | undefined;
      return self?.relation === 'self' && self.onboardingCompleted;
    },
    [user?.id],
    false,
  );
  if (!user || user.onboardingCompleted || deviceDone || completedSetupHere(user.id)) return false;
  return !onSignedOutFlow(pathname);
}
