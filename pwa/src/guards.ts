/**
 * Who may open which screen (spec section 6). Pure decisions here; routes/guard.ts carries them
 * out, so the rules can be tested without a browser.
 */
import { DELAYS_MS } from '@pingme/shared';
import type { SessionStatus, ToastInput } from './stores';

export type AccessRule =
  /** Anyone: landing/home, reset password, verify e-mail, not-found. */
  | 'public'
  /** Signed-out only: /auth sends a signed-in person home. */
  | 'guest'
  /** Signed-in only: a visitor goes to sign in (/api/login, a full-page navigation). */
  | 'member'
  /** Signed-in only, and a visitor is told 'Unauthorized' first (profile, privacy settings). */
  | 'member-told'
  /** The analytics screen: a visitor goes to /auth. */
  | 'member-analytics'
  /** The invite screen: a visitor is told 'Sign in required' and goes to sign in. */
  | 'invite';

export type GuardDecision =
  | { kind: 'allow' }
  /** A client-side route change. */
  | { kind: 'redirect'; to: string }
  /** A full-page navigation to the server's sign-in, after an optional toast. */
  | { kind: 'sign-in'; toast?: ToastInput; delayMs: number };

const ALLOW: GuardDecision = { kind: 'allow' };

export function decideAccess(rule: AccessRule, status: SessionStatus): GuardDecision {
  // The router starts after the session has settled; 'loading' never blocks a screen.
  if (status === 'loading') return ALLOW;
  const signedIn = status === 'signed-in';
  switch (rule) {
    case 'public':
      return ALLOW;
    case 'guest':
      return signedIn ? { kind: 'redirect', to: '/' } : ALLOW;
    case 'member':
      return signedIn ? ALLOW : { kind: 'sign-in', delayMs: 0 };
    case 'member-told':
      return signedIn
        ? ALLOW
        : {
            kind: 'sign-in',
            toast: {
              title: 'Unauthorized',
              description: 'You are logged out. Logging in again...',
              variant: 'destructive',
            },
            delayMs: DELAYS_MS.loginRedirect,
          };
    case 'member-analytics':
      return signedIn ? ALLOW : { kind: 'redirect', to: '/auth' };
    case 'invite':
      return signedIn
        ? ALLOW
        : {
            kind: 'sign-in',
            toast: { title: 'Sign in required', description: 'Sign in to accept this invitation.' },
            delayMs: DELAYS_MS.loginRedirect,
          };
  }
}
