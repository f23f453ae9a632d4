/**
 * Full-page navigations out of the single-page app: the server's sign-in entry (/api/login,
 * which redirects to /auth) and third-party sign-in (/api/auth/google).
 */
import { toastOnScreen, useUi } from './stores';

export const LOGIN_HREF = '/api/login';
export const GOOGLE_SIGN_IN_HREF = '/api/auth/google';

const RETURN_TO_KEY = 'pingme.returnTo';

/** Screens of the signed-out flow, which a signed-in person may still reach. */
const SIGNED_OUT_FLOW_PATHS = ['/auth', '/reset-password', '/verify-email'];

export function onSignedOutFlow(pathname: string): boolean {
  return SIGNED_OUT_FLOW_PATHS.some((p) => pathname.startsWith(p));
}

/** Leaves the app for `href` (a real browser navigation, not a client route change). */
export function leaveTo(href: string): void {
  useUi.getState().setLeavingTo(href);
  window.location.assign(href);
}

/** Sends the person to sign in, remembering where they were so sign-in can bring them back. */
export function leaveToLogin(returnTo?: string, delayMs = 0): void {
  if (returnTo) rememberReturnTo(returnTo);
  useUi.getState().setLeavingTo(LOGIN_HREF);
  if (delayMs <= 0) return leaveTo(LOGIN_HREF);
  // The toast that says why ('Sign in required', 'Unauthorized') is on screen for `delayMs`
  // before the page goes: counted from when it is drawn, not from when it was queued.
  void toastOnScreen(TOAST_WAIT_MAX_MS).then(() => setTimeout(() => leaveTo(LOGIN_HREF), delayMs));
}

/** How long leaving for sign-in waits for its toast to be drawn, at the most. */
export const TOAST_WAIT_MAX_MS = 3000;

function rememberReturnTo(path: string): void {
  try {
    sessionStorage.setItem(RETURN_TO_KEY, path);
  } catch {
    // storage unavailable: sign-in simply lands on /
  }
}

/**
 * Screens a sign-in detour comes back to: an invite link holds an action the visitor came to
 * do. Anything else (the last screen visited, which may be days old or one they may not open:
 * /admin) gives way to the spec's rule, home after signing in (issue 15, item 8).
 */
const RETURN_TO_PATHS = [/^\/invite\/[^/?#]+$/];

/** The invite to open after signing in (once), or '/'. */
export function takeReturnTo(): string {
  let path: string | null = null;
  try {
    path = sessionStorage.getItem(RETURN_TO_KEY);
    sessionStorage.removeItem(RETURN_TO_KEY);
  } catch {
    // storage unavailable
  }
  // Only same-app paths: never an absolute URL or a protocol-relative one.
  return path && RETURN_TO_PATHS.some((re) => re.test(path)) ? path : '/';
}
