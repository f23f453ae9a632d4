/**
 * O3: a 2xx answer that is an entity row goes into Dexie at once (parsed with its mutation's
 * result schema), under the rules of effects.ts; anything else is left to the pull.
 */
import 'fake-indexeddb/auto';
import type { Anchor, BatchEntry } from '@pingme/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db';
import { isPending, localWrite } from './local-write';
import { drainOutbox } from './outbox-worker';
import { TEST_FRIEND, TEST_ME, serverPing, testId, testPerson } from './testing';

const ME = TEST_ME;
const person = testPerson;

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
});

async function sendCustom(id: string, text = 'hello') {
  return localWrite({
    mutation: 'ping.sendCustom',
    args: { id, receiverId: TEST_FRIEND, customText: text },
    effects: [{ table: 'pings', key: id, after: { ...serverPing(id), pending: true } }],
  });
}

/** One drain whose batch answers each entry with what `answer` gives (status 200). */
async function drainAnswering(answer: (e: BatchEntry, i: number) => unknown, status = 200) {
  return drainOutbox({
    send: async (entries) => ({
      results: entries.map((e, i) => ({
        idempotencyKey: e.idempotencyKey,
        status,
        body: answer(e, i),
      })),
    }),
    onRejected: () => {},
  });
}

const argsOf = (e: BatchEntry) => ('name' in e ? e.args : e.body) as { id: string };

describe('answers applied to Dexie (O3)', () => {
  it('puts the answered row in place of the pending one at once', async () => {
    const id = testId(1);
    await sendCustom(id);
    expect(isPending(await db.pings.get(id))).toBe(true);
    const stored = serverPing(id, { createdAt: '2026-11-24T10:00:01.000Z' });
    const result = await drainAnswering(() => stored, 201);
    expect(result).toMatchObject({ sent: 1, unreadAnswers: 0 });
    expect(await db.pings.get(id)).toEqual(stored);
  });

  it('keeps the optimistic row of a later write that still waits', async () => {
    const id = testId(2);
    await sendCustom(id);
    const read = { ...serverPing(id), isRead: true, pending: true };
    await localWrite({
      mutation: 'ping.markRead',
      args: { id },
      effects: [{ table: 'pings', key: id, after: read }],
    });
    // The first is acknowledged, the second is not attempted (it waits).
    await drainOutbox({
      send: async (entries) => ({
        results: entries.map((e, i) => ({
          idempotencyKey: e.idempotencyKey,
          status: i === 0 ? 201 : 503,
          body: i === 0 ? serverPing(id) : { error: 'Service Unavailable' },
        })),
      }),
      onRejected: () => {},
    });
    expect(await db.outbox.count()).toBe(1);
    expect(await db.pings.get(id)).toEqual(read);
  });

  it('writes every ping of a group send', async () => {
    const ids = [testId(3), testId(4)];
    const other = testId(901);
    await localWrite({
      mutation: 'ping.sendGroup',
      args: {
        groupId: testId(5),
        promptId: testId(6),
        receiverIds: [TEST_FRIEND, other],
        ids,
      },
      effects: ids.map((id) => ({
        table: 'pings' as const,
        key: id,
        after: { ...serverPing(id), pending: true },
      })),
    });
    const pings = [serverPing(ids[0]!), serverPing(ids[1]!, { receiverId: other })];
    await drainAnswering(() => ({ groupId: testId(5), pings }), 201);
    expect(await db.pings.bulkGet(ids)).toEqual(pings);
  });

  it('an anchor accepted instead answers under the friend’s id: the proposed row waits for the pull', async () => {
    const proposed = testId(7);
    const theirs = testId(8);
    const pendingRow = { id: proposed, status: 'pending', pending: true };
    await localWrite({
      mutation: 'anchor.create',
      args: { id: proposed, friendId: TEST_FRIEND, text: 'Call me', emoji: '⚓', color: '#e35120' },
      effects: [{ table: 'anchors', key: proposed, after: pendingRow }],
    });
    const accepted: Anchor = {
      id: theirs,
      userId: TEST_FRIEND,
      friendId: ME,
      user: { ...person(TEST_FRIEND, 'Bo'), email: null },
      friend: { ...person(ME, 'Ada'), email: null },
      label: null,
      text: 'Call me',
      emoji: '⚓',
      color: '#e35120',
      status: 'accepted',
      createdAt: '2026-11-24T09:00:00.000Z',
      respondedAt: '2026-11-24T10:00:00.000Z',
    };
    await drainAnswering(() => ({ ...accepted, autoAccepted: true }));
    expect(await db.anchors.get(theirs)).toEqual(accepted);
    expect(await db.anchors.get(proposed)).toEqual(pendingRow);
  });

  it('leaves an answer that does not match its schema to the pull, and counts it', async () => {
    const id = testId(9);
    await sendCustom(id);
    const result = await drainAnswering((e) => ({ id: argsOf(e).id, surprise: 'not a ping' }), 201);
    expect(result).toMatchObject({ sent: 1, unreadAnswers: 1 });
    expect(await db.outbox.count()).toBe(0);
    expect(isPending(await db.pings.get(id))).toBe(true);
  });

  it('prefers the version a pull brought while the write waited over a replayed answer', async () => {
    const id = testId(10);
    const entry = await sendCustom(id);
    // The answer was lost; a pull brought the ping with Bo's reaction (rememberServerRows).
    const pulled = serverPing(id, {
      reactions: [
        {
          id: testId(11),
          pingId: id,
          userId: TEST_FRIEND,
          reactionType: 'heart',
          createdAt: '2026-11-24T10:05:00.000Z',
        },
      ],
    });
    await db.outbox.update(entry.seq!, { serverRows: { [`pings:${id}`]: pulled } });
    // The retry is answered with the response stored the first time: the ping before the reaction.
    await drainAnswering(() => serverPing(id), 201);
    expect(await db.pings.get(id)).toEqual(pulled);
  });
});
