import { afterEach, describe, expect, it } from 'vitest';
import { takeReturnTo } from './navigation';

afterEach(() => sessionStorage.clear());

describe('return-to after sign-in', () => {
  it('returns a remembered in-app path once', () => {
    sessionStorage.setItem('pingme.returnTo', '/invite/abc123');
    expect(takeReturnTo()).toBe('/invite/abc123');
    expect(takeReturnTo()).toBe('/');
  });

  it('goes home instead of the last screen visited (spec: / after signing in)', () => {
    for (const screen of ['/admin', '/pings', '/profile', '/friend/abc', '/invite/a/b']) {
      sessionStorage.setItem('pingme.returnTo', screen);
      expect(takeReturnTo()).toBe('/');
    }
  });

  it('never returns another site or a server path', () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/api/login', 'pings']) {
      sessionStorage.setItem('pingme.returnTo', bad);
      expect(takeReturnTo()).toBe('/');
    }
  });
});
