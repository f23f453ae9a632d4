/**
 * One holder at a time across every tab and the service worker of this origin (Web Locks), with
 * an in-process queue where the Web Locks API is missing (old browsers, unit tests).
 */
interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export const OUTBOX_LOCK = 'pingme-outbox';
export const PULL_LOCK = 'pingme-pull';

const local = new Map<string, Promise<unknown>>();

function localLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const before = local.get(name) ?? Promise.resolve();
  const run = before.then(fn, fn);
  local.set(
    name,
    run.catch(() => {}),
  );
  return run;
}

function lockManager(): LockManagerLike | undefined {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks;
}

export function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = lockManager();
  return locks ? locks.request(name, fn) : localLock(name, fn);
}
