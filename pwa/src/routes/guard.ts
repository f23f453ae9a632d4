/** Carries out guards.ts's decisions in a route's beforeLoad. */
import { redirect } from '@tanstack/react-router';
import { decideAccess, type AccessRule } from '../guards';
import { leaveToLogin } from '../navigation';
import { toast, useSession } from '../stores';

export function guard(rule: AccessRule) {
  return ({ location }: { location: { href: string } }): void => {
    const decision = decideAccess(rule, useSession.getState().status);
    switch (decision.kind) {
      case 'allow':
        return;
      case 'redirect':
        throw redirect({ href: decision.to, replace: true });
      case 'sign-in':
        if (decision.toast) toast(decision.toast);
        // The root layout shows 'Taking you to sign in…' instead of the screen meanwhile.
        leaveToLogin(location.href, decision.delayMs);
        return;
    }
  };
}
