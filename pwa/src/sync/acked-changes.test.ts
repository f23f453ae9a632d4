/**
 * A pull page read before the server applied a write must not put the write's rows back as they
 * were: the batch answers each write's change number (`BatchResult.change`), and a page whose
 * cursor is below it, whether it arrives while the write waits or after its acknowledgement,
 * leaves the rows the server answered for the write as they are until a page covers that
 * number (rows still optimistic take what the page brings: the server may never mention them
 * again). Found in the
 * browser: a reaction shown as "You reacted" went back to unpressed for a moment when the pull
 * after a read mark, fetched before the reaction reached the server, came back after it
 * (e2e/ping-flow.test.ts).
 */
import 'fake-indexeddb/auto';
import type { BatchEntry, PullChange, PullResponse, Reaction } from '@pingme/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db';
import { isPending, localWrite } from './local-write';
import { getSyncMeta } from './meta';
import { drainOutbox } from './outbox-worker';
import { pullAll } from './pull-worker';
import { TEST_FRIEND, TEST_ME, serverPing, testId } from './testing';

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
});

const PING = testId(1);

const reaction = (userId: string, reactionType: Reaction['reactionType'], n: number): Reaction => ({
  id: testId(n),
  pingId: PING,
  userId,
  reactionType,
  createdAt: '2026-11-24T10:05:00.000Z',
});

/** Bo's ping to me, as the server has it before I react. */
const received = serverPing(PING, { senderId: TEST_FRIEND, receiverId: TEST_ME });
const mine = reaction(TEST_ME, 'heart', 2);
const withMine = { ...received, reactions: [mine] };

const pingChange = (data: unknown): PullChange => ({
  entity: 'ping',
  id: PING,
  op: 'upsert',
  data,
});

/** One pull from the cursor: a single page answering these changes at this cursor. */
async function pull(changes: PullChange[], cursor: number, reset = false) {
  const page: PullResponse = { cursor, hasMore: false, reset, snapshot: null, changes };
  await pullAll({ userId: TEST_ME, fetchPage: async () => page });
}

/** One drain whose batch applies every entry now: answered with `body` and `change`. */
async function drain(body: unknown, change: number | undefined) {
  await drainOutbox({
    send: async (entries: BatchEntry[]) => ({
      results: entries.map((e) => ({
        idempotencyKey: e.idempotencyKey,
        status: 200,
        body,
        ...(change === undefined ? {} : { change }),
      })),
    }),
    onRejected: () => {},
  });
}

/** I react with a heart, as ReactionBar does. */
async function react() {
  await localWrite({
    mutation: 'ping.react',
    args: { pingId: PING, id: mine.id, reactionType: 'heart' },
    effects: [
      {
        table: 'pings',
        key: PING,
        after: { ...withMine, pending: true, pendingReaction: 'heart' },
      },
    ],
  });
}

describe('a pull page read before a write was applied', () => {
  beforeEach(async () => {
    await db.pings.put(received);
    await db.meta.put({ key: 'cursor', value: 7 });
  });

  it('arriving while the write waits: the acknowledgement puts the answer, not that page’s row', async () => {
    await react();
    await pull([pingChange(received)], 7);
    expect((await db.pings.get(PING))?.reactions).toEqual([mine]); // still waiting
    await drain(withMine, 8);
    expect(await db.pings.get(PING)).toEqual(withMine);
  });

  it('arriving after the acknowledgement: the row stays as the answer left it, until a page covers the write', async () => {
    await react();
    await drain(withMine, 8);
    expect(await db.pings.get(PING)).toEqual(withMine);
    expect(await getSyncMeta('ackedChanges')).toEqual({ [`pings:${PING}`]: 8 });

    await pull([pingChange(received)], 7);
    expect(await db.pings.get(PING)).toEqual(withMine);

    // The page that covers the write brings what happened since: Bo's reaction too.
    const both = { ...received, reactions: [mine, reaction(TEST_FRIEND, 'wow', 3)] };
    await pull([pingChange(both)], 8);
    expect(await db.pings.get(PING)).toEqual(both);
    expect(await getSyncMeta('ackedChanges')).toBeUndefined();
  });

  it('keeps only the server’s own versions: a row left optimistic takes what the page brings', async () => {
    // The server had already marked the ping read (change 5), which this device had not pulled;
    // its mark-all-read then changes nothing there, and no later change will mention the ping.
    const read = { ...received, isRead: true, readAt: '2026-11-24T10:01:00.000Z' };
    await localWrite({
      mutation: 'ping.markAllRead',
      args: {},
      effects: [
        {
          table: 'pings',
          key: PING,
          after: { ...received, isRead: true, readAt: '2026-11-24T10:09:00.000Z', pending: true },
        },
      ],
    });
    await drain({ count: 0 }, 9);
    expect(isPending(await db.pings.get(PING))).toBe(true); // the answer holds no row
    // A page read before the write brings the server's version: it is taken, never skipped.
    await pull([pingChange(read)], 8);
    expect(await db.pings.get(PING)).toEqual(read);
    await pull([], 9);
    expect(await db.pings.get(PING)).toEqual(read);
  });

  it('a snapshot read before the write keeps the row too, and forgets the numbers when done', async () => {
    await react();
    await drain(withMine, 8);
    await pull([pingChange(received)], 7, true);
    expect(await db.pings.get(PING)).toEqual(withMine); // kept, not swept
    expect(await getSyncMeta('ackedChanges')).toBeUndefined();
  });
});

describe('a pull page read after the write', () => {
  it('is the version the acknowledgement keeps, over the answer', async () => {
    await db.pings.put(received);
    await db.meta.put({ key: 'cursor', value: 7 });
    await react();
    // The first answer was lost; meanwhile Bo reacted too, and a pull brought both (cursor 9).
    const both = { ...received, reactions: [mine, reaction(TEST_FRIEND, 'wow', 3)] };
    await pull([pingChange(both)], 9);
    await drain(withMine, 8);
    expect(await db.pings.get(PING)).toEqual(both);
    expect(isPending(await db.pings.get(PING))).toBe(false);
  });
});
