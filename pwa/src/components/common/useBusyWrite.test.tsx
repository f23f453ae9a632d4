/**
 * useBusyWrite, rendered in a real React root: the busy flag a form's button shows while its write
 * runs, kept after success by the forms that go away (so a second tap cannot send twice), and the
 * failure toast, fixed or made from the error.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useToasts } from '../../stores';
import { useBusyWrite } from './useBusyWrite';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Hook = ReturnType<typeof useBusyWrite>;

let root: Root;
let hook: Hook;

function Probe({ keep }: { keep: boolean }) {
  hook = useBusyWrite({ keepBusyAfterSuccess: keep });
  return null;
}

async function mount(keep: boolean) {
  root = createRoot(document.createElement('div'));
  await act(async () => root.render(<Probe keep={keep} />));
}

/** A write the test finishes when it chooses. */
function pendingWrite() {
  let finish!: (err?: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = (err) => (err ? reject(err) : resolve());
  });
  return { write: () => done, finish };
}

beforeEach(() => useToasts.setState({ current: null }));
afterEach(async () => act(async () => root.unmount()));

describe('useBusyWrite', () => {
  it('is busy while the write runs and ready again after it succeeds', async () => {
    await mount(false);
    const { write, finish } = pendingWrite();
    let run!: Promise<void>;
    await act(async () => {
      run = hook.run(write, { title: 'Could not send' });
    });
    expect(hook.busy).toBe(true);
    await act(async () => {
      finish();
      await run;
    });
    expect(hook.busy).toBe(false);
    expect(useToasts.getState().current).toBeNull();
  });

  it('stays busy after a success when the form goes away after its write', async () => {
    await mount(true);
    await act(async () => hook.run(async () => undefined, { title: 'Could not send' }));
    expect(hook.busy).toBe(true);
  });

  it('on failure shows the toast made from the error and frees the button, even when kept busy after success', async () => {
    await mount(true);
    const { write, finish } = pendingWrite();
    let run!: Promise<void>;
    await act(async () => {
      run = hook.run(write, (err) => ({
        title: 'Login failed',
        description: (err as Error).message,
      }));
    });
    await act(async () => {
      finish(new Error('Invalid email or password'));
      await run;
    });
    expect(hook.busy).toBe(false);
    expect(useToasts.getState().current).toMatchObject({
      title: 'Login failed',
      description: 'Invalid email or password',
      variant: 'destructive',
    });
  });

  it('shows a fixed failure toast as it is given', async () => {
    await mount(false);
    await act(async () =>
      hook.run(() => Promise.reject(new Error('offline')), {
        title: 'Could not save',
        description: 'Try again',
      }),
    );
    expect(hook.busy).toBe(false);
    expect(useToasts.getState().current).toMatchObject({
      title: 'Could not save',
      description: 'Try again',
      variant: 'destructive',
    });
  });

  it("titles a failure toast 'Error' when it has no title, as a write's own error toast", async () => {
    await mount(false);
    await act(async () =>
      hook.run(() => Promise.reject(new Error('offline')), { description: 'Failed to delete' }),
    );
    expect(useToasts.getState().current).toMatchObject({
      title: 'Error',
      description: 'Failed to delete',
      variant: 'destructive',
    });
  });
});
