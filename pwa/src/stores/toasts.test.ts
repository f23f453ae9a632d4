import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast, toastOnScreen, useToasts } from './index';

afterEach(() => {
  vi.useRealTimers();
  useToasts.setState({ current: null, shownId: null });
});

describe('toasts (spec section 9)', () => {
  it('shows one at a time: a new toast replaces the one on screen', () => {
    toast({ title: 'First' });
    toast({ title: 'Second', description: 'Replaces the first' });
    expect(useToasts.getState().current).toMatchObject({ title: 'Second', open: true });
  });

  it('keeps a dismissed toast closed, then removes it after 1,000,000 ms', () => {
    vi.useFakeTimers();
    toast({ title: 'Bye' });
    useToasts.getState().dismiss();
    expect(useToasts.getState().current).toMatchObject({ title: 'Bye', open: false });
    vi.advanceTimersByTime(999_999);
    expect(useToasts.getState().current).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(useToasts.getState().current).toBeNull();
  });
});

describe('toastOnScreen: a toast drawn, not only queued', () => {
  it('is at once when there is no toast', async () => {
    vi.useFakeTimers();
    let done = false;
    void toastOnScreen(3000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it('waits for the Toaster to report the current toast, not an earlier one', async () => {
    vi.useFakeTimers();
    toast({ title: 'Earlier' });
    const earlier = useToasts.getState().current!.id;
    useToasts.getState().markShown(earlier);
    toast({ title: 'Sign in required' });
    let done = false;
    void toastOnScreen(3000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2000);
    expect(done).toBe(false);
    useToasts.getState().markShown(useToasts.getState().current!.id);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it('gives up waiting after its limit, so a viewport that never loads strands nobody', async () => {
    vi.useFakeTimers();
    toast({ title: 'Sign in required' });
    let done = false;
    void toastOnScreen(3000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
