/** The app shell: top bar, the screen, the bottom navigation, toasts and background work. */
import {
  Outlet,
  createRootRoute,
  lazyRouteComponent,
  useRouterState,
} from '@tanstack/react-router';
import { PendingResponse } from '@pingme/shared';
import { Suspense, useEffect, useRef, useState } from 'react';
import { firstFramePainted } from '../after-first-frame';
import { api } from '../api';
import { useNeedsSetup } from '../components/setup/SetupGate';
import { StatusCard } from '../components/StatusCard';
import { TopBar } from '../components/TopBar';
import { UpdatePrompt } from '../components/UpdatePrompt';
import { cx } from '../components/cx';
import { getMeta } from '../db';
import { LOGIN_HREF, onSignedOutFlow } from '../navigation';
import { useSession, useUi } from '../stores';
import { NotFoundScreen } from '../screens/NotFoundScreen';

/**
 * Not in the first download (docs/pwa.md, "Bundle size"): the setup flow (new accounts only), the
 * toast viewport with Radix Toast, the signed-in chrome (bottom navigation, friend-request banner)
 * and the sync host with the sync engine. The toast viewport is fetched as soon as this module
 * runs (in parallel with the session check) and the root's loader waits for it, so a guard's toast
 * shows on the first render, before a sign-in detour leaves the page. For a signed-in person the
 * loader also fetches the chrome and the sync host before the first render; visitors get the sync
 * host just after it. Tooltips carry their own provider (components/Tooltip.tsx), so Radix Tooltip
 * rides with the screens that show one.
 */
const SetupScreen = lazyRouteComponent(() => import('../screens/SetupScreen'), 'SetupScreen');
const Toaster = lazyRouteComponent(() => import('../components/Toaster'), 'Toaster');
/**
 * A visitor arriving on the landing page ('/') needs no toast in the first frame: the viewport is
 * fetched after that frame is on screen instead (Lighthouse counts every request started before
 * it against the landing's first paint).
 */
const LANDING_FIRST = window.location.pathname === '/';
const toasterLoaded = LANDING_FIRST ? undefined : Toaster.preload?.();
const SyncHost = lazyRouteComponent(() => import('../components/SyncHost'), 'SyncHost');
const BottomNav = lazyRouteComponent(() => import('../components/BottomNav'), 'BottomNav');
const FriendRequestsBanner = lazyRouteComponent(
  () => import('../components/FriendRequestsBanner'),
  'FriendRequestsBanner',
);

export const rootRoute = createRootRoute({
  loader: async ({ location }) => {
    const signedIn = useSession.getState().status === 'signed-in';
    const chrome = signedIn ? [SyncHost, BottomNav, FriendRequestsBanner] : [];
    const toastsNow = signedIn || location.pathname !== '/';
    await Promise.all([
      toastsNow ? (toasterLoaded ?? Toaster.preload?.()) : undefined,
      ...chrome.map((c) => c.preload?.()),
      // The banner sits above the screen: know now whether it shows, so nothing shifts later.
      signedIn &&
        Promise.all([import('../components/FriendRequestsBanner'), requestsBeforeFirstPull()]).then(
          ([m, ids]) => m.primeFriendRequests(ids),
        ),
    ]);
  },
  component: RootLayout,
  notFoundComponent: NotFoundScreen,
});

/**
 * A device that has never pulled knows nothing of the person's friend requests until its first
 * snapshot lands: the server is asked while the chunks load, so the banner is in the first frame
 * (above Home's header, which is there at once) instead of pushing the header down later. Any
 * failure leaves it to the snapshot, as before.
 */
async function requestsBeforeFirstPull(): Promise<string[] | undefined> {
  try {
    if ((await getMeta('cursor')) !== undefined) return undefined;
    const { received } = await api.get('/api/friends/pending', {
      schema: PendingResponse,
      on401: 'throw',
    });
    return received.map((r) => r.requestId);
  } catch {
    return undefined;
  }
}

function RootLayout() {
  const leavingTo = useUi((s) => s.leavingTo);
  const signedIn = useSession((s) => s.status === 'signed-in');
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // A new account finishes the setup before anything else (spec section 6).
  const needsSetup = useNeedsSetup(pathname);
  const showNav = signedIn && !needsSetup && !onSignedOutFlow(pathname);
  // A visitor's first frame goes out before the toast viewport and the sync host are fetched.
  const painted = useFirstFramePainted();
  const withToaster = painted || toasterLoaded !== undefined || signedIn;
  const withSyncHost = painted || signedIn;
  useFocusMainOnNavigation(pathname);
  useResetLeavingOnReturn();

  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <div className={cx('app', showNav && 'app--with-nav')}>
        <TopBar />
        <main id="main" className="app__main" tabIndex={-1}>
          {/* Inside main, above the screen: when it arrives with a new device's first sync, in the
              same render as the screen's content, nothing that was on screen moves down. */}
          {showNav && !leavingTo && (
            <Suspense fallback={null}>
              <FriendRequestsBanner />
            </Suspense>
          )}
          {leavingTo ? (
            <StatusCard tone="busy" title="Just a moment">
              <p>{leavingTo === LOGIN_HREF ? 'Taking you to sign in…' : 'Redirecting…'}</p>
            </StatusCard>
          ) : needsSetup ? (
            <Suspense fallback={null}>
              <SetupScreen />
            </Suspense>
          ) : (
            <Outlet />
          )}
        </main>
        {showNav && (
          <Suspense fallback={null}>
            <BottomNav />
          </Suspense>
        )}
      </div>
      <UpdatePrompt />
      {withToaster && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
      {withSyncHost && (
        <Suspense fallback={null}>
          <SyncHost />
        </Suspense>
      )}
    </>
  );
}

/** False in the first render, true once that frame is on screen (a frame, then a task). */
function useFirstFramePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        setPainted(true);
        firstFramePainted();
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
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
