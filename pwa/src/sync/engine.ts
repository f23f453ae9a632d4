/**
 * The seam between the app and its sync engine (docs/sync.md, "Client"). Screens
 * and triggers call `syncEngine()`; SyncHost installs the live engine (live-engine.ts) before
 * anything renders, and tests install their own. Until then the idle engine does nothing: the
 * outbox keeps what was written and the UI shows how many entries wait.
 */
import type { SelfUser } from '@pingme/shared';
import { NetworkError } from '../api';
import { useRealtime } from '../stores';

export type SyncReason =
  | 'start'
  | 'online'
  | 'visible'
  | 'background-sync'
  | 'timer'
  | 'poke'
  /** A localWrite just queued an entry. */
  | 'write'
  /** The backoff timer of the outbox worker. */
  | 'retry'
  /** The /ws socket (re)connected. */
  | 'reconnect'
  /** The outbox worker got answers: bring the server's rows. */
  | 'after-send'
  /** The person is signing out: send what waits first. */
  | 'sign-out';

export interface SyncEngine {
  /** Send the waiting outbox entries, oldest first (then pull, when something was sent). */
  flushOutbox(reason: SyncReason): Promise<void>;
  /**
   * Send what waits, then bring the server's changes for this person into Dexie: what every
   * trigger runs (one drain per trigger; 'after-send' only pulls).
   */
  pull(reason: SyncReason): Promise<void>;
  /** Open the realtime connection for this person; the returned function closes it. */
  connect(user: SelfUser): () => void;
}

/** Does nothing: the outbox stays as written and the UI shows how many entries wait. */
export const idleEngine: SyncEngine = {
  flushOutbox: async () => {},
  pull: async () => {},
  connect: () => () => {},
};

let engine: SyncEngine = idleEngine;

export function installSyncEngine(next: SyncEngine): void {
  engine = next;
}

export function syncEngine(): SyncEngine {
  return engine;
}

/**
 * One trigger (SyncHost's, or a person's 'Try again'): send what waits (once), then pull. Never
 * rejects. Whether the pull failed with the server reachable is kept for the screens
 * (`pullFailed`): a new device's loading state says so instead of waiting on in silence.
 */
export async function runSync(reason: SyncReason): Promise<void> {
  const { setPullFailed } = useRealtime.getState();
  try {
    await engine.pull(reason);
    setPullFailed(false);
  } catch (err) {
    // Unreachable is connectivity's to show (and its probe's to end), not a failed pull.
    if (!(err instanceof NetworkError)) setPullFailed(true);
    console.warn(`sync (${reason}) failed`, err);
  }
}
