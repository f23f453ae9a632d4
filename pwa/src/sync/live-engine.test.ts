import 'fake-indexeddb/auto';
import type { BatchEntry, SelfUser } from '@pingme/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db, type OutboxRow } from '../db';
import { useSession, useToasts } from '../stores';
import { backoffDelay, BACKOFF_CAP_MS, parseRetryAfter } from './backoff';
import { createLiveEngine, rejectionToast, type LiveEngine } from './live-engine';
import { localWrite } from './local-write';
import { numbered, numberOf } from './testing';

const fetchMock = vi.fn<typeof fetch>();
let engine: LiveEngine;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

/** Answers every batch entry with `status` (and pulls with an empty page). */
function batchAnswer(status: (n: number) => number) {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/api/sync/pull')) {
      return json(200, { cursor: 1, hasMore: false, reset: false, snapshot: null, changes: [] });
    }
    const { entries } = JSON.parse(String(init!.body)) as { entries: BatchEntry[] };
    return json(200, {
      results: entries.map((e) => ({
        idempotencyKey: e.idempotencyKey,
        status: status(numberOf(e)),
        body: status(numberOf(e)) >= 400 ? { error: 'You can only ping friends' } : {},
      })),
    });
  };
}

async function queue(n: number) {
  for (let i = 0; i < n; i++) {
    await localWrite({
      mutation: 'ping.sendCustom',
      args: numbered(i),
      effects: [{ table: 'pings', key: `p${i}`, after: { id: `p${i}`, pending: true } }],
      errorToast: { description: 'Failed to send pings. Please try again.' },
    });
  }
}

const batchCalls = () => fetchMock.mock.calls.filter(([u]) => String(u) === '/api/sync/batch');

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(window.location, 'assign').mockImplementation(() => {});
  useSession.getState().setUser({ id: 'me', firstName: 'Ada' } as SelfUser, true);
  useToasts.setState({ current: null });
  engine = createLiveEngine();
});

afterEach(() => {
  engine.dispose();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('backoff', () => {
  it('doubles from 1 s with jitter, capped near 60 s', () => {
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(1, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 1)).toBe(4000);
    expect(backoffDelay(20, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(20, () => 0)).toBe(BACKOFF_CAP_MS / 2);
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('30')).toBe(30_000);
    expect(parseRetryAfter(new Date(61_000).toUTCString(), 1_000)).toBe(60_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('live engine: outbox', () => {
  it('backs off on a 503 and on no answer, retries, and resets after success', async () => {
    await queue(2);
    fetchMock.mockResolvedValueOnce(json(503, { error: 'down' }));
    // The backoff is 500-1000 ms (jitter) after the failure, which came between before and
    // after. The test retries by itself: the engine's own timer is stopped each time.
    let before = Date.now();
    await engine.flushOutbox('write');
    let after = Date.now();
    engine.dispose();
    expect(engine.retryAt()).toBeGreaterThanOrEqual(before + 500);
    expect(engine.retryAt()).toBeLessThanOrEqual(after + 1000);
    expect(await db.outbox.count()).toBe(2);

    // A write during the backoff does not hammer the server.
    await engine.flushOutbox('write');
    expect(batchCalls()).toHaveLength(1);

    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    before = Date.now();
    await engine.flushOutbox('retry');
    after = Date.now();
    engine.dispose();
    // The second failure in a row: 1000-2000 ms.
    expect(engine.retryAt()).toBeGreaterThanOrEqual(before + 1000);
    expect(engine.retryAt()).toBeLessThanOrEqual(after + 2000);

    fetchMock.mockImplementation(batchAnswer(() => 201));
    await engine.flushOutbox('retry');
    expect(await db.outbox.count()).toBe(0);
    expect(engine.retryAt()).toBe(0);
    expect(batchCalls()).toHaveLength(3);
  });

  it('honours Retry-After even when the network comes back', async () => {
    await queue(1);
    fetchMock.mockResolvedValueOnce(json(429, { error: 'slow down' }, { 'Retry-After': '30' }));
    const before = Date.now();
    await engine.flushOutbox('start');
    expect(engine.retryAt() - before).toBeGreaterThanOrEqual(30_000);
    await engine.flushOutbox('online');
    expect(batchCalls()).toHaveLength(1);
  });

  it('shows a refused write’s toast once and rolls it back', async () => {
    await queue(2);
    fetchMock.mockImplementation(batchAnswer((n) => (n === 0 ? 403 : 201)));
    await engine.flushOutbox('write');
    expect(useToasts.getState().current).toMatchObject({
      title: 'Error',
      description: 'Failed to send pings. Please try again.',
      variant: 'destructive',
    });
    expect(await db.pings.get('p0')).toBeUndefined();
    expect(await db.pings.get('p1')).toBeDefined();
    expect(await db.outbox.count()).toBe(0);
  });

  it('turns a 401 into the session-expired flow, keeping the writes', async () => {
    await queue(1);
    fetchMock.mockImplementation(async () => json(401, { error: 'Unauthorized' }));
    await engine.flushOutbox('write');
    // (The previous test's engine may still be finishing its pull after send: pulls aside.)
    const calls = fetchMock.mock.calls.map(([u]) => String(u));
    expect(calls.filter((u) => !u.startsWith('/api/sync/pull'))).toEqual([
      '/api/sync/batch',
      '/api/user',
    ]);
    expect(useToasts.getState().current).toMatchObject({
      title: 'Unauthorized',
      description: 'You are logged out. Logging in again...',
    });
    expect(await db.outbox.count()).toBe(1);
    expect(engine.retryAt()).toBe(0);
    // Once the Toaster has drawn the toast, the page leaves for sign-in after its 500 ms (and
    // within this test: a leave still pending when the file ends would find no window).
    useToasts.getState().markShown(useToasts.getState().current!.id);
    await vi.waitFor(() => expect(window.location.assign).toHaveBeenCalledWith('/api/login'));
  });

  it('drains once per trigger: a pull sends what waits first, and the pull after a send does not drain again', async () => {
    await queue(1);
    fetchMock.mockImplementation(batchAnswer(() => 201));
    await engine.pull('visible');
    expect(batchCalls()).toHaveLength(1);
    expect(engine.drains()).toBe(1);
    // A write's own flush, then the pull that follows a send: still one drain for the trigger.
    await queue(1);
    const drained = engine.drains();
    await engine.flushOutbox('write');
    await vi.waitFor(() =>
      expect(
        fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/api/sync/pull')).length,
      ).toBe(2),
    );
    expect(engine.drains()).toBe(drained + 1);
  });

  it('a trigger that comes during a pull still drains, with its own urgency', async () => {
    await queue(1);
    let releasePull!: () => void;
    const pullHeld = new Promise<void>((r) => (releasePull = r));
    let batches = 0;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).startsWith('/api/sync/pull')) {
        await pullHeld;
        return json(200, { cursor: 1, hasMore: false, reset: false, snapshot: null, changes: [] });
      }
      batches++;
      // The first batch fails: the outbox backs off.
      if (batches === 1) return json(503, { error: 'down' });
      return batchAnswer(() => 201)(input, init);
    });
    await engine.flushOutbox('write');
    engine.dispose();
    expect(batches).toBe(1);
    // A slow-timer pull (not urgent: it waits out the backoff) is under way…
    const slow = engine.pull('timer');
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([u]) => String(u).startsWith('/api/sync/pull'))).toBe(true),
    );
    // …when the network comes back: that trigger sends at once.
    const online = engine.pull('online');
    await vi.waitFor(() => expect(batches).toBe(2));
    expect(await db.outbox.count()).toBe(0);
    releasePull();
    await Promise.all([slow, online]);
  });

  it('a pull asked for during a drain waits for it, even during a backoff', async () => {
    await queue(1);
    let releaseBatch!: () => void;
    const batchHeld = new Promise<void>((r) => (releaseBatch = r));
    let batches = 0;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).startsWith('/api/sync/pull')) {
        return json(200, { cursor: 1, hasMore: false, reset: false, snapshot: null, changes: [] });
      }
      batches++;
      if (batches === 1) return json(503, { error: 'down' });
      await batchHeld;
      return batchAnswer(() => 201)(input, init);
    });
    await engine.flushOutbox('write');
    engine.dispose();
    // The network is back: a drain is under way, its batch not answered yet…
    const online = engine.pull('online');
    await vi.waitFor(() => expect(batches).toBe(2));
    const pullsBefore = fetchMock.mock.calls.filter(([u]) =>
      String(u).startsWith('/api/sync/pull'),
    );
    // …when the server pokes: that pull waits for the drain instead of running beside it.
    const poke = engine.pull('poke');
    await new Promise((r) => setTimeout(r, 50));
    const pulls = () =>
      fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/api/sync/pull')).length;
    expect(pulls()).toBe(pullsBefore.length);
    releaseBatch();
    await Promise.all([online, poke]);
    expect(pulls()).toBeGreaterThan(pullsBefore.length);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a pull under way when a drain starts fetches its next page only after the drain', async () => {
    // The network comes back while a pull started during the outage is still paging: its pages
    // (the rows the drain is sending) held the outbox for half a second mid-drain before.
    await queue(1);
    let releasePage!: () => void;
    const pageHeld = new Promise<void>((r) => (releasePage = r));
    let releaseBatch!: () => void;
    const batchHeld = new Promise<void>((r) => (releaseBatch = r));
    let batches = 0;
    const pulls = () =>
      fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/api/sync/pull')).length;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).startsWith('/api/sync/pull')) {
        const first = pulls() === 1;
        if (first) await pageHeld;
        return json(200, {
          cursor: pulls(),
          hasMore: first,
          reset: false,
          snapshot: null,
          changes: [],
        });
      }
      batches++;
      if (batches === 1) return json(503, { error: 'down' });
      await batchHeld;
      return batchAnswer(() => 201)(input, init);
    });
    await engine.flushOutbox('write');
    engine.dispose();
    // A slow-timer pull during the backoff: its first page is on the way…
    const slow = engine.pull('timer');
    await vi.waitFor(() => expect(pulls()).toBe(1));
    // …when the network comes back: the drain starts, and then that page answers (more to come).
    const online = engine.pull('online');
    await vi.waitFor(() => expect(batches).toBe(2));
    releasePage();
    await new Promise((r) => setTimeout(r, 50));
    expect(pulls()).toBe(1);
    releaseBatch();
    await Promise.all([slow, online]);
    expect(pulls()).toBeGreaterThan(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it('sends nothing while signed out', async () => {
    await queue(1);
    useSession.getState().setSignedOut();
    await engine.flushOutbox('write');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('rejection toast', () => {
  const entry = (errorToast: OutboxRow['errorToast']): OutboxRow => ({
    id: 'e1',
    name: 'ping.sendCustom',
    args: {},
    idempotencyKey: 'e1',
    createdAt: new Date(0).toISOString(),
    attempts: 0,
    status: 'pending',
    ...(errorToast ? { errorToast } : {}),
  });

  it("shows the screen's text by default, even when the server said something", () => {
    const t = rejectionToast(entry({ description: 'Failed to send pings. Please try again.' }), {
      error: 'You can only ping friends',
      code: 'forbidden',
    });
    expect(t).toMatchObject({
      title: 'Error',
      description: 'Failed to send pings. Please try again.',
    });
  });

  it("prefers the server's message where the spec says so", () => {
    const t = rejectionToast(
      entry({
        title: 'Failed to send',
        description: 'Could not send your custom ping',
        preferServerMessage: true,
      }),
      { error: 'You can only ping friends', code: 'forbidden' },
    );
    expect(t).toMatchObject({ title: 'Failed to send', description: 'You can only ping friends' });
    const fallback = rejectionToast(
      entry({
        title: 'Failed to send',
        description: 'Could not send your custom ping',
        preferServerMessage: true,
      }),
      null,
    );
    expect(fallback?.description).toBe('Could not send your custom ping');
  });

  it("always says the daily limit's own sentence", () => {
    const message = 'Bo has set a daily limit of 1 pings from each friend. Try again tomorrow.';
    const t = rejectionToast(entry({ description: 'Failed to send pings. Please try again.' }), {
      error: message,
      code: 'daily_limit_reached',
    });
    expect(t?.description).toBe(message);
  });

  it('stays silent for a write without a toast (mark-read)', () => {
    expect(rejectionToast(entry(undefined), { error: 'x', code: 'not_found' })).toBeNull();
  });
});
