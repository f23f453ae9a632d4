/**
 * Build time only (vite.config.ts, `prerenderLanding`): the visitor's Landing page as static
 * markup, written into `dist/landing.html` so the server can answer a first visit to `/` with
 * something to paint before any script has run (docs/pwa.md, "Landing for visitors"). The tree
 * is the app shell of a signed-out start on `/` (routes/__root.tsx: skip link, top bar, main)
 * around the real LandingScreen, under a memory router so the links render as in the app. The
 * app then renders into #root as usual (createRoot replaces this markup; no hydration).
 */
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { TopBar } from '../components/TopBar';
import { LandingScreen } from '../screens/LandingScreen';

function Shell() {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <div className="app">
        <TopBar />
        <main id="main" className="app__main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </>
  );
}

/** The markup that goes inside `<div id="root">` of landing.html. */
export async function renderLanding(): Promise<string> {
  const rootRoute = createRootRoute({ component: Shell });
  const landingRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/',
    component: LandingScreen,
  });
  // The app's /auth route exists too; the static tree only needs its path for the links.
  const authRoute = createRoute({ getParentRoute: () => rootRoute, path: '/auth' });
  const router = createRouter({
    routeTree: rootRoute.addChildren([landingRoute, authRoute]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
    isServer: true,
  });
  await router.load();
  return renderToString(<RouterProvider router={router} />);
}
