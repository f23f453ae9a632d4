/** '/': the landing page for visitors, Home for signed-in people. */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { useSession } from '../stores';
import { rootRoute } from './__root';
import { guard } from './guard';
import { LandingScreen } from '../screens/LandingScreen';

/**
 * Home is its own chunk, so a visitor's first download (landing, auth) leaves it out; for a
 * signed-in person the route's loader fetches it before '/' renders (precached offline).
 */
const HomeScreen = lazyRouteComponent(() => import('../screens/HomeScreen'), 'HomeScreen');

export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: guard('public'),
  loader: async () => {
    if (useSession.getState().status === 'signed-in') await HomeScreen.preload?.();
  },
  component: IndexScreen,
});

function IndexScreen() {
  const signedIn = useSession((s) => s.status === 'signed-in');
  return signedIn ? <HomeScreen /> : <LandingScreen />;
}
