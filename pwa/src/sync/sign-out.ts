/**
 * Signing out clears the device's data, outbox included (docs/pwa.md). Before that, try to send
 * what waits; only if something still waits, ask the person (never drop writes silently).
 *
 *   const waiting = await flushBeforeSignOut();
 *   if (waiting === 0 || (await askThePerson(unsentChangesMessage(waiting)))) await signOut(...);
 */
import { db } from '../db';
import { syncEngine } from './engine';

/** How long sign-out waits for the outbox to drain before asking. */
export const SIGN_OUT_FLUSH_MS = 5000;

/** Sends what waits (at most SIGN_OUT_FLUSH_MS), then answers how many writes still wait. */
export async function flushBeforeSignOut(timeoutMs = SIGN_OUT_FLUSH_MS): Promise<number> {
  const flush = syncEngine()
    .flushOutbox('sign-out')
    .catch((err) => console.warn('flush before sign-out failed', err));
  await Promise.race([flush, new Promise((r) => setTimeout(r, timeoutMs))]);
  return db.outbox.count();
}

/** The confirmation question: 'N changes have not been sent yet. Sign out anyway?' */
export function unsentChangesMessage(n: number): string {
  return n === 1
    ? '1 change has not been sent yet. Sign out anyway?'
    : `${n} changes have not been sent yet. Sign out anyway?`;
}

/**
 * Flush, then ask with `confirm` (default: the browser's) when writes still wait. True: go on
 * and sign out.
 */
export async function confirmSignOut(
  confirm: (message: string) => boolean | Promise<boolean> = (m) => window.confirm(m),
): Promise<boolean> {
  const waiting = await flushBeforeSignOut();
  return waiting === 0 || (await confirm(unsentChangesMessage(waiting)));
}
