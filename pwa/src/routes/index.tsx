/** '/': the landing page for visitors, Home for signed-in people. */
import { createRoute } from '@tanstack/react-router';
import { useSession } from '../stores';
import { rootRoute } from './__root';
import { guard } from './guard';
import { HomeScreen } from './home';
import { LandingScreen } from './landing';

export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: guard('public'),
  component: IndexScreen,
});

function IndexScreen() {
  const signedIn = useSession((s) => s.status === 'signed-in');
  return signedIn ? <HomeScreen /> : <LandingScreen />;
}
