/**
 * A pull that runs while a write waits brings the server's version of the write's rows, then
 * puts the optimistic row back over it (guarantee 7) and moves its cursor past that change.
 * When the write is then acknowledged (its first answer was lost, so it was retried after the
 * pull) or refused, no later pull sends that version again: the device must keep it itself.
 * Found by convergence.fault.test.ts (a shared mood stayed `pending`, with the device's own
 * createdAt, after every device had drained and pulled).
 */
import 'fake-indexeddb/auto';
import type { BatchEntry, PullChange, PullResponse } from '@pingme/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { db, describeEntry } from '../db';
import { isPending, localWrite } from './local-write';
import { drainOutbox } from './outbox-worker';
import { pullAll } from './pull-worker';
import { TEST_FRIEND, testId } from './testing';

const ME = 'me';

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
});

const page = (changes: PullChange[], cursor: number): PullResponse => ({
  cursor,
  hasMore: false,
  reset: false,
  snapshot: null,
  changes,
});

/** One pull from the cursor, answering these changes. */
async function pull(changes: PullChange[], cursor: number) {
  await pullAll({ userId: ME, fetchPage: async () => page(changes, cursor) });
}

/** One drain whose batch answers every entry with `status`. */
async function drain(status: number) {
  const refused: string[] = [];
  await drainOutbox({
    send: async (entries: BatchEntry[]) => ({
      results: entries.map((e) => ({ idempotencyKey: e.idempotencyKey, status, body: {} })),
    }),
    onRejected: (entry) => {
      refused.push(describeEntry(entry));
    },
  });
  return refused;
}

const serverMood = {
  id: 'm1',
  userId: ME,
  friendId: 'bo',
  mood: 'happy',
  emoji: '😊',
  note: null,
  createdAt: '2026-11-22T07:00:00.000Z',
};

describe('the server’s rows a pull brought while a write waited', () => {
  it('replace the optimistic row when the write is acknowledged after that pull', async () => {
    await db.meta.put({ key: 'cursor', value: 1 });
    await localWrite({
      mutation: 'mood.share',
      args: { id: testId(1), friendId: TEST_FRIEND, mood: 'happy', emoji: '😊' },
      effects: [
        {
          table: 'moods',
          key: 'm1',
          after: { ...serverMood, createdAt: '2026-11-22T06:59:59.000Z', pending: true },
        },
      ],
    });
    // The server stored the write, its answer was lost; a pull brings the mood (cursor 7).
    await pull([{ entity: 'mood', id: 'm1', op: 'upsert', data: serverMood }], 7);
    expect(isPending(await db.moods.get('m1'))).toBe(true); // still waiting: read-your-writes
    // The retry is answered (a replay); nothing newer than cursor 7 will mention m1.
    expect(await drain(200)).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.moods.get('m1')).toEqual(serverMood);
    await pull([], 7);
    expect(await db.moods.get('m1')).toEqual(serverMood);
  });

  it('are what a refused write rolls back to, rather than the row it replaced', async () => {
    const ping = { id: 'p1', senderId: 'bo', receiverId: ME, reactions: [] as unknown[] };
    await db.pings.put(ping as never);
    await db.meta.put({ key: 'cursor', value: 1 });
    await localWrite({
      mutation: 'ping.react',
      args: { pingId: testId(1), reactionType: 'wow' },
      effects: [
        {
          table: 'pings',
          key: 'p1',
          after: { ...ping, reactions: [{ userId: ME, reactionType: 'wow' }], pending: true },
        },
      ],
      errorToast: { description: 'Failed to react to ping' },
    });
    // Meanwhile the sender reacted; the pull brings that (and moves past it).
    const withTheirs = { ...ping, reactions: [{ userId: 'bo', reactionType: 'heart' }] };
    await pull([{ entity: 'ping', id: 'p1', op: 'upsert', data: withTheirs }], 9);
    expect(await drain(404)).toEqual(['ping.react']);
    expect(await db.pings.get('p1')).toEqual(withTheirs);
  });

  it('wait while a later write still holds the row, and follow the last one acknowledged', async () => {
    await db.meta.put({ key: 'cursor', value: 1 });
    const profile = (tagline: string, pending?: true) => ({
      id: ME,
      relation: 'self',
      tagline,
      ...(pending ? { pending } : {}),
    });
    await localWrite({
      mutation: 'profile.update',
      args: { tagline: 'a' },
      effects: [{ table: 'users', key: ME, after: profile('a', true) }],
    });
    await pull([{ entity: 'user', id: ME, op: 'upsert', data: profile('a') }], 5);
    await localWrite({
      mutation: 'profile.update',
      args: { tagline: 'b' },
      effects: [{ table: 'users', key: ME, after: profile('b', true) }],
    });
    // Acknowledge only the first: the second still waits, so its row stays.
    await drainOutbox({
      send: async (entries) => ({
        results: entries.map((e, i) => ({
          idempotencyKey: e.idempotencyKey,
          status: i === 0 ? 200 : 503,
          body: {},
        })),
      }),
      onRejected: () => {},
    });
    expect(await db.outbox.count()).toBe(1);
    expect(await db.users.get(ME)).toEqual(profile('b', true));
    // A pull brings 'b' as stored; the second is then acknowledged: the server's row stays.
    await pull([{ entity: 'user', id: ME, op: 'upsert', data: profile('b') }], 6);
    await drain(200);
    expect(await db.users.get(ME)).toEqual(profile('b'));
  });
});
