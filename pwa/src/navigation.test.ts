import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_HREF, TOAST_WAIT_MAX_MS, leaveToLogin, takeReturnTo } from './navigation';
import { toast, useToasts, useUi } from './stores';

afterEach(() => {
  sessionStorage.clear();
  vi.useRealTimers();
  vi.restoreAllMocks();
  useToasts.setState({ current: null, shownId: null });
  useUi.setState({ leavingTo: null });
});

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

describe('leaving for sign-in after a toast (spec: the toast, then /api/login 500 ms later)', () => {
  function watchNavigation() {
    return vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
  }

  it('counts the 500 ms from when the toast is drawn, not from when it was queued', async () => {
    vi.useFakeTimers();
    const assign = watchNavigation();
    toast({ title: 'Sign in required', description: 'Sign in to accept this invitation.' });
    leaveToLogin('/invite/abc123', 500);
    expect(useUi.getState().leavingTo).toBe(LOGIN_HREF);
    // The toast viewport is still loading (a slow device): the page stays.
    await vi.advanceTimersByTimeAsync(800);
    expect(assign).not.toHaveBeenCalled();
    // Drawn now: half a second on screen, then sign-in.
    useToasts.getState().markShown(useToasts.getState().current!.id);
    await vi.advanceTimersByTimeAsync(499);
    expect(assign).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(assign).toHaveBeenCalledExactlyOnceWith(LOGIN_HREF);
    expect(sessionStorage.getItem('pingme.returnTo')).toBe('/invite/abc123');
  });

  it('leaves anyway when the toast is never drawn', async () => {
    vi.useFakeTimers();
    const assign = watchNavigation();
    toast({ title: 'Unauthorized' });
    leaveToLogin(undefined, 500);
    await vi.advanceTimersByTimeAsync(TOAST_WAIT_MAX_MS + 499);
    expect(assign).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(assign).toHaveBeenCalledExactlyOnceWith(LOGIN_HREF);
  });

  it('leaves at once without a delay', () => {
    const assign = watchNavigation();
    leaveToLogin('/pings');
    expect(assign).toHaveBeenCalledExactlyOnceWith(LOGIN_HREF);
  });
});
