import 'fake-indexeddb/auto';
import type { BatchEntry, BatchResponse } from '@pingme/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { db, type OutboxRow } from '../db';
import { isPending, localWrite } from './local-write';
import { acknowledgeWrites } from './effects';
import { OUTBOX_LOCK, withLock } from './locks';
import { drainOutbox, TransportError, type BatchSender } from './outbox-worker';
import { numbered, numberOf } from './testing';

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
});

/** n writes, each an optimistic ping row plus its outbox entry. */
async function queue(n: number, from = 0): Promise<OutboxRow[]> {
  const rows: OutboxRow[] = [];
  for (let i = from; i < from + n; i++) {
    rows.push(
      await localWrite({
        mutation: 'ping.sendCustom',
        args: numbered(i),
        effects: [{ table: 'pings', key: `p${i}`, after: { id: `p${i}`, n: i, pending: true } }],
        errorToast: { description: 'Failed to send pings. Please try again.' },
      }),
    );
  }
  return rows;
}

const answer = (entries: BatchEntry[], status: (e: BatchEntry, i: number) => number) => ({
  results: entries.map((e, i) => ({
    idempotencyKey: e.idempotencyKey,
    status: status(e, i),
    body: {},
  })),
});
const allOk: BatchSender = async (entries) => answer(entries, () => 201);
const nOf = numberOf;

describe('outbox worker', () => {
  it('sends every entry once, oldest first, in bounded batches, each with its own key', async () => {
    const rows = await queue(120);
    const batches: BatchEntry[][] = [];
    const result = await drainOutbox({
      send: async (entries) => {
        batches.push(entries);
        return allOk(entries);
      },
      onRejected: () => {},
      maxEntries: 50,
    });
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
    expect(batches.flat().map(nOf)).toEqual([...Array(120).keys()]);
    expect(batches.flat().map((e) => e.idempotencyKey)).toEqual(rows.map((r) => r.idempotencyKey));
    expect(result).toMatchObject({ sent: 120, rejected: 0, batches: 3 });
    expect(result.stopped).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
    // Acknowledged rows stay (pending) until the pull brings the server's.
    expect(isPending(await db.pings.get('p0'))).toBe(true);
  });

  it('bounds a batch by size too', async () => {
    for (let i = 0; i < 3; i++) {
      await localWrite({
        mutation: 'ping.sendCustom',
        args: { ...numbered(i), customText: `${i} ${'x'.repeat(190)}` },
      });
    }
    const sizes: number[] = [];
    await drainOutbox({
      send: async (entries) => {
        sizes.push(entries.length);
        return allOk(entries);
      },
      onRejected: () => {},
      maxBytes: 1000,
    });
    expect(sizes).toEqual([2, 1]);
  });

  it.each([
    ['a 503', new TransportError(503, '503: Service Unavailable'), 503],
    ['no answer', new TransportError(0, 'Network error'), 0],
    ['a thrown TypeError', new TypeError('Failed to fetch'), 0],
  ])('stops on %s at the batch level and keeps every entry', async (_name, error, status) => {
    await queue(3);
    const result = await drainOutbox({
      send: async () => {
        throw error;
      },
      onRejected: () => {},
    });
    expect(result.stopped?.status).toBe(status);
    expect(result.stopped?.unauthorized).toBe(false);
    const left = await db.outbox.orderBy('seq').toArray();
    expect(left.map(numberOf)).toEqual([0, 1, 2]);
    expect(left[0]!.attempts).toBe(1);
    expect(left[0]!.lastError).toBe(error.message);
  });

  it('rolls back a final 403, tells the person once, and goes on with the rest', async () => {
    await db.pings.put({ id: 'p1', n: 'before' } as never);
    await queue(3);
    const onRejected = vi.fn();
    const result = await drainOutbox({
      send: async (entries) => answer(entries, (e) => (nOf(e) === 1 ? 403 : 201)),
      onRejected,
    });
    expect(result).toMatchObject({ sent: 2, rejected: 1 });
    expect(onRejected).toHaveBeenCalledTimes(1);
    expect(onRejected.mock.calls[0]![0].errorToast).toEqual({
      description: 'Failed to send pings. Please try again.',
    });
    expect(onRejected.mock.calls[0]![1]).toBe(403);
    // The refused write's row is what it was before; the others keep their optimistic rows.
    expect(await db.pings.get('p1')).toEqual({ id: 'p1', n: 'before' });
    expect(isPending(await db.pings.get('p2'))).toBe(true);
    expect(await db.outbox.count()).toBe(0);
  });

  it('acknowledges entries that are not consecutive without touching the one between them', async () => {
    // acknowledgeWrites reads and deletes a batch's entries as one seq range when they fill it.
    const [a, b, c] = await queue(3);
    await acknowledgeWrites([
      { seq: a!.seq!, rows: [{ table: 'pings', key: 'p0', row: { id: 'p0', n: 'server' } }] },
      { seq: c!.seq!, rows: [{ table: 'pings', key: 'p2', row: { id: 'p2', n: 'server' } }] },
    ]);
    expect((await db.outbox.toArray()).map((e) => e.seq)).toEqual([b!.seq]);
    expect(await db.pings.get('p0')).toEqual({ id: 'p0', n: 'server' });
    expect(isPending(await db.pings.get('p1'))).toBe(true);
    expect(await db.pings.get('p2')).toEqual({ id: 'p2', n: 'server' });
  });

  it('stops at a 429 entry: earlier ones are done, it and the later ones wait in order', async () => {
    await queue(4);
    const result = await drainOutbox({
      send: async (entries) =>
        answer(entries, (e) => (nOf(e) === 0 ? 201 : nOf(e) === 1 ? 429 : 0)),
      onRejected: () => {},
    });
    expect(result.sent).toBe(1);
    expect(result.stopped?.status).toBe(429);
    const left = await db.outbox.orderBy('seq').toArray();
    expect(left.map(numberOf)).toEqual([1, 2, 3]);
    expect(await db.pings.get('p1')).toBeDefined();
  });

  it("treats a receiver's daily limit (429 daily_limit_reached) as final: rolled back, the queue goes on", async () => {
    await queue(3);
    const rejected: [number, unknown][] = [];
    const limit = {
      error: 'Bo has set a daily limit of 1 pings from each friend. Try again tomorrow.',
      code: 'daily_limit_reached',
    };
    const result = await drainOutbox({
      send: async (entries) => ({
        results: entries.map((e) => ({
          idempotencyKey: e.idempotencyKey,
          status: nOf(e) === 1 ? 429 : 201,
          body: nOf(e) === 1 ? limit : {},
        })),
      }),
      onRejected: (_row, status, body) => {
        rejected.push([status, body]);
      },
    });
    expect(result).toMatchObject({ sent: 2, rejected: 1 });
    expect(result.stopped).toBeUndefined();
    expect(rejected).toEqual([[429, limit]]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.pings.get('p1')).toBeUndefined();
    expect(await db.pings.get('p2')).toBeDefined();
  });

  it('stops on a 401 without rolling anything back', async () => {
    await queue(2);
    const onRejected = vi.fn();
    const result = await drainOutbox({
      send: async () => {
        throw new TransportError(401, '401: {"error":"Unauthorized"}');
      },
      onRejected,
    });
    expect(result.stopped).toMatchObject({ status: 401, unauthorized: true });
    expect(onRejected).not.toHaveBeenCalled();
    expect(await db.outbox.count()).toBe(2);
    expect(await db.pings.count()).toBe(2);
  });

  it('sends only its author’s writes: an entry by someone else stops the drain, untouched', async () => {
    const [mine] = await queue(1);
    await db.outbox.update(mine!.seq!, { userId: 'ada' });
    const [theirs] = await queue(1, 1);
    await db.outbox.update(theirs!.seq!, { userId: 'cy' });
    const [unnamed] = await queue(1, 2);
    const sent: BatchEntry[] = [];
    const result = await drainOutbox({
      send: async (entries) => {
        sent.push(...entries);
        return answer(entries, () => 201);
      },
      onRejected: vi.fn(),
      author: 'ada',
    });
    expect(sent.map(nOf)).toEqual([0]);
    expect(result).toMatchObject({ sent: 1, batches: 1 });
    expect(result.stopped).toBeUndefined();
    expect((await db.outbox.toArray()).map((e) => e.idempotencyKey)).toEqual([
      theirs!.idempotencyKey,
      unnamed!.idempotencyKey,
    ]);
  });

  it('lets one drainer at a time hold the outbox: two racing workers send each entry once', async () => {
    // happy-dom has no Web Locks (navigator.locks is null): locks.ts's in-process fallback holds.
    expect(navigator.locks ?? null).toBeNull();
    await queue(30);
    const seen: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const send: BatchSender = async (entries): Promise<BatchResponse> => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 10));
      seen.push(...entries.map((e) => e.idempotencyKey));
      inFlight--;
      return allOk(entries);
    };
    const worker = () =>
      withLock(OUTBOX_LOCK, () => drainOutbox({ send, onRejected: () => {}, maxEntries: 7 }));
    const [a, b] = await Promise.all([worker(), worker()]);
    expect(maxInFlight).toBe(1);
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    expect(a.sent + b.sent).toBe(30);
    expect(b.sent).toBe(0);
  });
});
