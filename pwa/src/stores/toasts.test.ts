import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast, useToasts } from './index';

afterEach(() => {
  vi.useRealTimers();
  useToasts.setState({ current: null });
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
