import { describe, expect, it } from 'vitest';
import { decideAccess, type AccessRule } from './guards';

describe('route guards (spec section 6)', () => {
  it('lets anyone open public screens', () => {
    for (const status of ['signed-in', 'signed-out'] as const)
      expect(decideAccess('public', status)).toEqual({ kind: 'allow' });
  });

  it('sends a signed-in person from /auth to /', () => {
    expect(decideAccess('guest', 'signed-in')).toEqual({ kind: 'redirect', to: '/' });
    expect(decideAccess('guest', 'signed-out')).toEqual({ kind: 'allow' });
  });

  it('sends a visitor on a protected screen to /api/login at once', () => {
    expect(decideAccess('member', 'signed-out')).toEqual({ kind: 'sign-in', delayMs: 0 });
    expect(decideAccess('member', 'signed-in')).toEqual({ kind: 'allow' });
  });

  it("tells a visitor 'Unauthorized' on profile and privacy settings, then 500 ms later", () => {
    expect(decideAccess('member-told', 'signed-out')).toEqual({
      kind: 'sign-in',
      toast: {
        title: 'Unauthorized',
        description: 'You are logged out. Logging in again...',
        variant: 'destructive',
      },
      delayMs: 500,
    });
  });

  it('sends a visitor on /analytics to /auth instead', () => {
    expect(decideAccess('member-analytics', 'signed-out')).toEqual({
      kind: 'redirect',
      to: '/auth',
    });
    expect(decideAccess('member-analytics', 'signed-in')).toEqual({ kind: 'allow' });
  });

  it("tells a visitor on an invite 'Sign in required' and sends them to sign in", () => {
    const decision = decideAccess('invite', 'signed-out');
    expect(decision).toMatchObject({ kind: 'sign-in', toast: { title: 'Sign in required' } });
    expect(decideAccess('invite', 'signed-in')).toEqual({ kind: 'allow' });
  });

  it('never blocks while the session is still loading', () => {
    const rules: AccessRule[] = ['guest', 'member', 'member-told', 'member-analytics', 'invite'];
    for (const rule of rules) expect(decideAccess(rule, 'loading')).toEqual({ kind: 'allow' });
  });
});
