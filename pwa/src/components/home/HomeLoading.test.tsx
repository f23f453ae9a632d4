/**
 * A new device's loading state tells the truth about its first pull: 'Loading your pings…' while
 * it runs, what happened when the server answered with an error (not when it was unreachable:
 * that is the offline state), and 'Try again', which asks at once.
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../../api';
import { useRealtime } from '../../stores';
import { idleEngine, installSyncEngine, runSync, type SyncEngine } from '../../sync/engine';
import { render, unmountAll } from '../testing';
import { HomeLoading } from './HomeLoading';

afterEach(async () => {
  await unmountAll();
  installSyncEngine(idleEngine);
  useRealtime.setState({ pullFailed: false });
  vi.restoreAllMocks();
});

function engineWhosePull(pull: SyncEngine['pull']): SyncEngine {
  return { ...idleEngine, pull };
}

describe("a new device's loading state", () => {
  it('says a failed pull, offers Try again, and goes back to loading once a pull succeeds', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const reasons: string[] = [];
    let fail = true;
    installSyncEngine(
      engineWhosePull(async (reason) => {
        reasons.push(reason);
        if (fail)
          throw new ApiError(500, '{"error":"Internal server error"}', 'Internal Server Error');
      }),
    );
    const host = await render(<HomeLoading />);
    expect(host.textContent).toContain('Loading your pings…');
    expect(host.querySelector('button')).toBeNull();

    await act(() => runSync('start'));
    expect(useRealtime.getState().pullFailed).toBe(true);
    expect(host.querySelector('[role="status"]')?.textContent).toBe(
      'Your pings could not be loaded yet. Trying again…',
    );
    const button = host.querySelector('button')!;
    expect(button.textContent).toBe('Try again');

    fail = false;
    await act(async () => button.click());
    expect(reasons).toEqual(['start', 'timer']);
    expect(useRealtime.getState().pullFailed).toBe(false);
    expect(host.querySelector('[role="status"]')?.textContent).toBe('Loading your pings…');
    expect(host.querySelector('button')).toBeNull();
  });

  it('leaves an unreachable server to the offline state: no failed pull is shown', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    installSyncEngine(
      engineWhosePull(async () => {
        throw new NetworkError(new TypeError('Failed to fetch'));
      }),
    );
    await runSync('start');
    expect(useRealtime.getState().pullFailed).toBe(false);
  });
});
