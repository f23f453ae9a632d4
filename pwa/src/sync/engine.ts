/**
 * The seam for the sync engine (ARCHITECTURE.md, "The sync protocol"). This slice wires every
 * trigger (start, online, visible, Background Sync, a slow timer) to the engine; the engine's
 * work arrives with later issues:
 *   - flushOutbox: the outbox worker (Web Locks, FIFO, backoff, POST /api/sync/batch);
 *   - pull: the pull worker (GET /api/sync/pull?since=cursor into Dexie, re-applying pending writes);
 *   - connect: the ws client (/ws, authenticate, poke → pull, new_ping).
 * They replace `idleEngine` with installSyncEngine(), and nothing else has to move.
 */
import type { SelfUser } from '@pingme/shared';

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
  /** Send the waiting outbox entries, oldest first. */
  flushOutbox(reason: SyncReason): Promise<void>;
  /** Bring the server's changes for this person into Dexie. */
  pull(reason: SyncReason): Promise<void>;
  /** Open the realtime connection for this person; the returned function closes it. */
  connect(user: SelfUser): () => void;
}

/** Does nothing yet: the outbox stays as written and the UI shows how many entries wait. */
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
