/**
 * The sync engine of an open tab: the outbox worker, the pull worker and the /ws client wired
 * to the API client, the session, the toasts and the backoff timers. SyncHost installs it.
 */
import { PullResponse, SelfUser, errorCodeOf, type PullQuery } from '@pingme/shared';
import { ApiError, NetworkError, api } from '../api';
import { db, describeEntry, type OutboxRow } from '../db';
import { refreshSession, rememberUser } from '../session';
import { toast, useConnectivity, useRealtime, useSession } from '../stores';
import { backoffDelay } from './backoff';
import type { SyncEngine, SyncReason } from './engine';
import { OUTBOX_LOCK, PULL_LOCK, withLock } from './locks';
import { claimDeviceData } from './device-owner';
import { getSyncMeta, setSyncMeta } from './meta';
import { bodyError, drainOutbox, TransportError, type DrainResult } from './outbox-worker';
import { BadSnapshotToken, pullAll } from './pull-worker';
import { isPending } from './local-write';
import { connectRealtime } from './realtime';
import { postBatch } from './transport';

/**
 * The spec's error toast of a refused write (title 'Error' unless the screen gave one). A write
 * without errorToast is refused silently (logged only), as the spec wants for mark-read.
 */
export function rejectionToast(entry: OutboxRow, body?: unknown) {
  if (!entry.errorToast) return null;
  const serverMessage = bodyError(body);
  // The daily limit's sentence is the only useful thing to say; elsewhere the spec asks for
  // the server's message where the screen says so ("server message used when present").
  const useServer =
    !!serverMessage &&
    (errorCodeOf(body) === 'daily_limit_reached' || entry.errorToast.preferServerMessage === true);
  return {
    title: entry.errorToast.title ?? 'Error',
    description: useServer ? serverMessage : entry.errorToast.description,
    variant: 'destructive' as const,
  };
}

function reportRejection(entry: OutboxRow, status: number, body: unknown): void {
  console.warn(`${describeEntry(entry)} refused: ${status} ${bodyError(body) ?? ''}`);
  const shown = rejectionToast(entry, body);
  if (shown) toast(shown);
}

function signedInId(): string | undefined {
  const { status, user } = useSession.getState();
  return status === 'signed-in' ? user?.id : undefined;
}

async function sendBatch(entries: Parameters<typeof postBatch>[0]) {
  try {
    const res = await postBatch(entries);
    useConnectivity.getState().setServerReachable(true);
    return res;
  } catch (err) {
    const reachable = !(err instanceof TransportError && err.status === 0);
    useConnectivity.getState().setServerReachable(reachable);
    throw err;
  }
}

/** A pull page with no answer after this long is given up; the next trigger pulls again. */
export const PULL_PAGE_TIMEOUT_MS = 60_000;

async function fetchPullPage(query: PullQuery): Promise<PullResponse> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PULL_PAGE_TIMEOUT_MS);
  try {
    return await api.get(`/api/sync/pull?${params}`, {
      schema: PullResponse,
      signal: controller.signal,
    });
  } catch (err) {
    if (query.snapshot && err instanceof ApiError && err.status === 400) {
      throw new BadSnapshotToken(err.message);
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** A 401 inside the outbox: confirm with the server, which runs api.ts's session-expired flow. */
async function confirmSession(): Promise<void> {
  try {
    await api.get('/api/user', { schema: SelfUser });
  } catch (err) {
    if (!(err instanceof ApiError) && !(err instanceof NetworkError)) throw err;
  }
}

export interface LiveEngine extends SyncEngine {
  /** For tests and SyncStatus: when the outbox will be tried again (0: not waiting). */
  retryAt(): number;
  /** For tests: how many times the outbox was drained (each trigger drains at most once). */
  drains(): number;
  /** Stops the retry timer (tests; a page never disposes its engine). */
  dispose(): void;
}

/** Triggers that say the network may be back: they try at once, even during a backoff. */
const URGENT: ReadonlySet<SyncReason> = new Set([
  'online',
  'visible',
  'background-sync',
  'reconnect',
  'sign-out',
]);

export function createLiveEngine(): LiveEngine {
  let flushing: Promise<DrainResult | undefined> | null = null;
  let flushAgain = false;
  let failures = 0;
  let drains = 0;
  let retryAt = 0;
  let retryAfterUntil = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pulling: Promise<void> | null = null;
  let pullAgain = false;

  const scheduleRetry = (result: DrainResult) => {
    const stopped = result.stopped!;
    failures++;
    const delay = Math.max(stopped.retryAfterMs ?? 0, backoffDelay(failures));
    retryAt = Date.now() + delay;
    retryAfterUntil = stopped.retryAfterMs ? Date.now() + stopped.retryAfterMs : 0;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => void engine.flushOutbox('retry'), delay);
  };

  async function drainOnce(userId: string): Promise<DrainResult> {
    drains++;
    const result = await withLock(OUTBOX_LOCK, async () => {
      // Writes another person left here are never sent under this person's session.
      await claimDeviceData(userId);
      return drainOutbox({
        send: sendBatch,
        onRejected: reportRejection,
        shouldContinue: () => signedInId() === userId,
        author: userId,
      });
    });
    if (result.unreadAnswers)
      useRealtime.getState().noteUnreadable('answers', result.unreadAnswers);
    if (result.stopped?.unauthorized) {
      await confirmSession();
      return result;
    }
    if (result.stopped) {
      scheduleRetry(result);
      return result;
    }
    failures = 0;
    retryAt = 0;
    retryAfterUntil = 0;
    clearTimeout(retryTimer);
    return result;
  }

  /**
   * C2. One drain per trigger: requests during a drain coalesce into one more pass. Answers what
   * the drain sent and refused (undefined when it did not run).
   */
  function flush(reason: SyncReason): Promise<DrainResult | undefined> {
    const userId = signedInId();
    if (!userId) return Promise.resolve(undefined);
    const now = Date.now();
    // Waiting out a backoff: only the retry timer, or a sign that the network is back, tries
    // sooner; a Retry-After is always honoured.
    const allowed =
      reason === 'retry' || now >= retryAt || (URGENT.has(reason) && now >= retryAfterUntil);
    // A drain under way is joined whatever the reason: a pull waits for it, then brings what
    // it sent, instead of running beside it.
    if (flushing) {
      if (allowed) flushAgain = true;
      return flushing;
    }
    if (!allowed) return Promise.resolve(undefined);
    flushing = (async () => {
      const total: DrainResult = { sent: 0, rejected: 0, batches: 0, unreadAnswers: 0 };
      try {
        do {
          flushAgain = false;
          const pass = await drainOnce(userId);
          total.sent += pass.sent;
          total.rejected += pass.rejected;
          total.batches += pass.batches;
        } while (flushAgain && signedInId() === userId && Date.now() >= retryAt);
        return total;
      } finally {
        flushing = null;
      }
    })();
    return flushing;
  }

  /** P1-P6, one pull at a time: a request during a pull makes it run once more. */
  function pullPages(): Promise<void> {
    const userId = signedInId();
    if (!userId) return Promise.resolve();
    if (pulling) {
      pullAgain = true;
      return pulling;
    }
    pulling = (async () => {
      try {
        do {
          pullAgain = false;
          await withLock(PULL_LOCK, async () => {
            // Another person's rows (and cursor) are forgotten: this person starts from a snapshot.
            await claimDeviceData(userId);
            return pullAll({
              userId,
              fetchPage: fetchPullPage,
              shouldContinue: () => signedInId() === userId,
              // A drain that started after this pull (the network came back meanwhile) goes first.
              beforePage: () => flushing?.catch(() => undefined),
            });
          });
          await adoptSelfFromPull(userId);
        } while (pullAgain && signedInId() === userId);
      } finally {
        pulling = null;
      }
    })();
    return pulling;
  }

  const engine: LiveEngine = {
    retryAt: () => retryAt,
    drains: () => drains,
    dispose: () => clearTimeout(retryTimer),

    async flushOutbox(reason: SyncReason): Promise<void> {
      const result = await flush(reason);
      // Acknowledged writes whose answers held no record come back with the next pull.
      if (result && (result.sent > 0 || result.rejected > 0)) {
        void engine.pull('after-send').catch((err) => console.warn('pull after send failed', err));
      }
    },

    async pull(reason: SyncReason): Promise<void> {
      // P0. The pull never hides a waiting write: send first (re-applied after, too), once for
      // this trigger and with its urgency, unless this pull follows a drain that just sent.
      if (reason !== 'after-send') await flush(reason);
      return pullPages();
    },

    connect(user: SelfUser): () => void {
      void showNoticesLeftByServiceWorker();
      return connectRealtime(user, {
        onPoke: (reason) => {
          void engine.pull(reason).catch((err) => console.warn(`pull (${reason}) failed`, err));
        },
        onSessionEnded: async () => (await refreshSession()) !== null,
      });
    },
  };
  return engine;
}

/**
 * The person's own record arrives with the pull too (a profile edited on another device): keep
 * the session's copy (and its Dexie cache) equal to it.
 */
async function adoptSelfFromPull(userId: string): Promise<void> {
  const row = await db.users.get(userId);
  if (!row || row.relation !== 'self' || isPending(row)) return;
  const { relation: _relation, ...fields } = row;
  const parsed = SelfUser.safeParse(fields);
  if (!parsed.success) return;
  const current = useSession.getState().user;
  if (current && sameFields(current, parsed.data)) return;
  if (signedInId() === userId) await rememberUser(parsed.data);
}

function sameFields(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every(
    (k) =>
      JSON.stringify((a as Record<string, unknown>)[k]) ===
      JSON.stringify((b as Record<string, unknown>)[k]),
  );
}

/** Refusals the service worker met while no tab was open: shown once, by the next tab. */
async function showNoticesLeftByServiceWorker(): Promise<void> {
  try {
    const notices = await getSyncMeta('syncNotices');
    if (!notices?.length) return;
    await setSyncMeta('syncNotices', []);
    for (const n of notices) toast({ ...n, variant: 'destructive' });
  } catch (err) {
    console.warn('could not read sync notices', err);
  }
}
