/** The app shell: top bar, the screen, the bottom navigation, toasts and background work. */
import { Outlet, createRootRoute, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { BottomNav } from '../components/BottomNav';
import { FriendRequestsBanner } from '../components/FriendRequestsBanner';
import { SetupScreen, useNeedsSetup } from '../components/setup/SetupGate';
import { StatusCard } from '../components/StatusCard';
import { SyncHost } from '../components/SyncHost';
import { Toaster } from '../components/Toaster';
import { TooltipProvider } from '../components/Tooltip';
import { TopBar } from '../components/TopBar';
import { UpdatePrompt } from '../components/UpdatePrompt';
import { cx } from '../components/cx';
import { LOGIN_HREF } from '../navigation';
import { useSession, useUi } from '../stores';
import { NotFoundScreen } from './not-found';

/** Screens of the signed-out flow: no bottom navigation there, even when signed in. */
const FLOW_PATHS = ['/auth', '/reset-password', '/verify-email'];

export const rootRoute = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundScreen,
});

function RootLayout() {
  const leavingTo = useUi((s) => s.leavingTo);
  const signedIn = useSession((s) => s.status === 'signed-in');
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // A new account finishes the setup before anything else (spec section 6).
  const needsSetup = useNeedsSetup(pathname);
  const showNav = signedIn && !needsSetup && !FLOW_PATHS.some((p) => pathname.startsWith(p));
  useFocusMainOnNavigation(pathname);
  useResetLeavingOnReturn();

  return (
    <TooltipProvider>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <div className={cx('app', showNav && 'app--with-nav')}>
        <TopBar />
        {showNav && !leavingTo && <FriendRequestsBanner />}
        <main id="main" className="app__main" tabIndex={-1}>
          {leavingTo ? (
            <StatusCard tone="busy" title="Just a moment">
              <p>{leavingTo === LOGIN_HREF ? 'Taking you to sign in…' : 'Redirecting…'}</p>
            </StatusCard>
          ) : needsSetup ? (
            <SetupScreen />
          ) : (
            <Outlet />
          )}
        </main>
        {showNav && <BottomNav />}
      </div>
      <UpdatePrompt />
      <Toaster />
      <SyncHost />
    </TooltipProvider>
  );
}

/** After a client-side navigation, put keyboard and screen-reader focus at the new screen. */
function useFocusMainOnNavigation(pathname: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [pathname]);
}

/** Coming Back to a page the browser kept (bfcache) after leaving for sign-in: show it again. */
function useResetLeavingOnReturn() {
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) useUi.getState().setLeavingTo(null);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);
}
