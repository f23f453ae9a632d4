/**
 * The setup flow a new account finishes first (components/setup/SetupGate.tsx decides when);
 * the root layout loads this on first need, so visitors and set-up accounts never download it.
 */
import { SetupFlow } from '../components/setup/SetupFlow';
import { useSession } from '../stores';

export function SetupScreen() {
  const user = useSession((s) => s.user);
  return user ? <SetupFlow key={user.id} user={user} /> : null;
}
