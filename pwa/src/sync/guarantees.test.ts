/**
 * The guarantees of docs/sync.md §8 checked on the device's own code (fake-indexeddb, happy-dom);
 * their browser-side counterparts are in e2e/guarantees.test.ts.
 *   1. Durable before visible: a write whose transaction fails shows nothing and queues nothing.
 *   6. A frame the server sends as binary is read like a text frame (the 'authenticated' that
 *      starts the catch-up pull on reconnect came binary and was dropped).
 *  10. A /ws new_ping delivered twice, or after the pull brought a newer copy, changes nothing.
 *   9. A batch the network swallows is given up after BATCH_TIMEOUT_MS, so the one drainer
 *      never holds the outbox (and the pulls behind it) for ever.
 * And the device's data is one person's: someone else signing in where a session expired never
 * sends the first person's waiting writes, nor sees their rows.
 */
import 'fake-indexeddb/auto';
import type { Ping } from '@pingme/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { db, getMeta, setMeta } from '../db';
import { useRealtime, useSession } from '../stores';
import { claimDeviceData } from './device-owner';
import { localWrite } from './local-write';
import { numbered, testId } from './testing';
import { TransportError } from './outbox-worker';
import { frameText, readFrame, receiveNewPing } from './realtime';
import { BATCH_TIMEOUT_MS, postBatch } from './transport';

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
  useSession.getState().setSignedOut();
});

function ping(fields: Partial<Ping> = {}): Ping {
  const person = { id: 'u1', firstName: 'Bo', lastName: 'T', profileImageUrl: null };
  return {
    id: 'p1',
    kind: 'prompt',
    senderId: 'u1',
    receiverId: 'u2',
    sender: person,
    receiver: { ...person, id: 'u2', firstName: 'Ada' },
    prompt: { id: 'pr1', text: 'Ping me when you need a hug', emoji: '🤗' },
    customText: null,
    customEmoji: null,
    anchorId: null,
    groupId: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    isRead: false,
    readAt: null,
    isBookmarked: false,
    reactions: [],
    ...fields,
  } as Ping;
}

describe('guarantee 1: durable before visible', () => {
  it('a write whose transaction fails leaves neither its row nor its outbox entry', async () => {
    // Appending the outbox entry fails after the row was put: the whole transaction aborts.
    const taken = await localWrite({ mutation: 'ping.sendCustom', args: numbered(1) });
    const add = vi.spyOn(db.outbox, 'add').mockImplementationOnce(() => {
      throw new Error('disk full');
    });
    await expect(
      localWrite({
        mutation: 'ping.sendCustom',
        args: numbered(9),
        effects: [{ table: 'pings', key: 'p9', after: { id: 'p9', pending: true } }],
      }),
    ).rejects.toThrow('disk full');
    add.mockRestore();
    expect(await db.pings.get('p9')).toBeUndefined();
    expect((await db.outbox.toArray()).map((e) => e.idempotencyKey)).toEqual([
      taken.idempotencyKey,
    ]);
  });
});

describe('guarantee 6: /ws frames, text or binary', () => {
  it('reads the JSON of a text frame and of a binary one alike', () => {
    const json = JSON.stringify({ type: 'authenticated', userId: 'u1' });
    const bytes = new TextEncoder().encode(json);
    expect(frameText(json)).toBe(json);
    expect(frameText(bytes.buffer)).toBe(json);
    expect(frameText(bytes)).toBe(json);
    expect(JSON.parse(frameText(bytes.buffer))).toEqual({ type: 'authenticated', userId: 'u1' });
  });
});

describe('the /ws contract: every frame is parsed with ServerMessage', () => {
  it('reads a frame that matches, and drops and counts one that does not', () => {
    const before = useRealtime.getState().unreadable.frames;
    expect(readFrame(JSON.stringify({ type: 'poke' }))).toEqual({ type: 'poke' });
    expect(readFrame(JSON.stringify({ type: 'new_ping', ping: { id: 'p1' } }))).toBeUndefined();
    expect(readFrame(JSON.stringify({ type: 'shout' }))).toBeUndefined();
    expect(readFrame('not json')).toBeUndefined();
    const [a, b] = [testId(1), testId(2)];
    const valid = ping({
      id: testId(3),
      senderId: a,
      receiverId: b,
      sender: { id: a, firstName: 'Bo', lastName: 'T', profileImageUrl: null },
      receiver: { id: b, firstName: 'Ada', lastName: 'T', profileImageUrl: null },
      prompt: { id: testId(4), text: 'Ping me when you need a hug', emoji: '🤗' },
    });
    expect(readFrame(JSON.stringify({ type: 'new_ping', ping: valid }))).toEqual({
      type: 'new_ping',
      ping: valid,
    });
    expect(useRealtime.getState().unreadable.frames - before).toBe(3);
  });
});

describe('guarantee 10: a push or a new_ping is a hint', () => {
  it('a new_ping delivered twice makes one row', async () => {
    await receiveNewPing(ping());
    await receiveNewPing(ping());
    expect(await db.pings.toArray()).toEqual([ping()]);
  });

  it('a late duplicate never overwrites the newer copy the pull brought', async () => {
    const pulled = ping({ isRead: true, readAt: '2026-01-01T00:01:00.000Z' });
    await db.pings.put(pulled);
    await receiveNewPing(ping());
    expect(await db.pings.get('p1')).toEqual(pulled);
  });
});

describe('the device’s data is one person’s', () => {
  async function adaLeftWritesAndRows() {
    await db.users.put({ id: 'ada', relation: 'self', firstName: 'Ada' } as never);
    await db.users.put({ id: 'bo', relation: 'friend', firstName: 'Bo' } as never);
    await setMeta('cursor', 42);
    return localWrite({
      mutation: 'ping.sendCustom',
      args: numbered(1),
      effects: [{ table: 'pings', key: 'p1', after: { id: 'p1', pending: true } }],
    });
  }

  it('another person signing in forgets the first one’s rows, cursor and waiting writes', async () => {
    await adaLeftWritesAndRows();
    await setMeta('currentUser', { id: 'cy' } as never);
    expect(await claimDeviceData('cy')).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.users.count()).toBe(0);
    expect(await db.pings.count()).toBe(0);
    expect(await getMeta('cursor')).toBeUndefined();
    // Who is signed in now stays known offline.
    expect(await getMeta('currentUser')).toEqual({ id: 'cy' });
  });

  it('a person who wrote before their first pull ever finished: someone else signing in forgets the writes', async () => {
    useSession.getState().setUser({ id: 'ada' } as never, true);
    // No `self` row yet: only the outbox entry says whose the write is.
    const entry = await localWrite({
      mutation: 'ping.sendCustom',
      args: numbered(1),
      effects: [{ table: 'pings', key: 'p1', after: { id: 'p1', pending: true } }],
    });
    expect(entry.userId).toBe('ada');
    expect(await claimDeviceData('ada')).toBe(false);
    expect(await db.outbox.count()).toBe(1);
    expect(await claimDeviceData('cy')).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.pings.count()).toBe(0);
  });

  it('the same person signing in again keeps everything, and their writes still go out', async () => {
    const entry = await adaLeftWritesAndRows();
    expect(await claimDeviceData('ada')).toBe(false);
    expect((await db.outbox.toArray()).map((e) => e.idempotencyKey)).toEqual([
      entry.idempotencyKey,
    ]);
    expect(await db.users.count()).toBe(2);
    expect(await getMeta('cursor')).toBe(42);
  });

  it('the check reads no waiting write of the person: its cost does not grow with the outbox', async () => {
    // It runs before every drain and every pull; walking a cursor over 1,000 waiting writes
    // delayed the first batch after the network came back by 100 ms (docs/performance.md).
    useSession.getState().setUser({ id: 'ada' } as never, true);
    await db.users.put({ id: 'ada', relation: 'self', firstName: 'Ada' } as never);
    for (let i = 0; i < 200; i++) {
      await localWrite({
        mutation: 'ping.sendCustom',
        args: numbered(i),
        effects: [{ table: 'pings', key: `p${i}`, after: { id: `p${i}`, pending: true } }],
      });
    }
    const steps = vi.spyOn(IDBCursor.prototype, 'continue');
    expect(await claimDeviceData('ada')).toBe(false);
    expect(steps.mock.calls.length).toBeLessThan(5);
    expect(await db.outbox.count()).toBe(200);
    // Another person's write among them, on either side of this person's id, is still found.
    for (const other of ['aa', 'zed']) {
      useSession.getState().setUser({ id: other } as never, true);
      await localWrite({
        mutation: 'ping.sendCustom',
        args: numbered(1000),
        effects: [{ table: 'pings', key: 'q', after: { id: 'q', pending: true } }],
      });
      expect(await claimDeviceData('ada')).toBe(true);
      expect(await db.outbox.count()).toBe(0);
      await db.users.put({ id: 'ada', relation: 'self', firstName: 'Ada' } as never);
    }
  });
});

describe('guarantee 9: a drainer never holds the outbox for ever', () => {
  it('gives up a batch with no answer after BATCH_TIMEOUT_MS, as "no answer"', async () => {
    vi.useFakeTimers();
    try {
      // A network that swallows the request: no answer, no error, until the signal aborts.
      const swallowed: typeof fetch = (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted')));
        });
      const sent = postBatch([], swallowed);
      const outcome = sent.then(
        () => 'answered',
        (err: unknown) => err,
      );
      await vi.advanceTimersByTimeAsync(BATCH_TIMEOUT_MS - 1);
      expect(await Promise.race([outcome, Promise.resolve('still waiting')])).toBe('still waiting');
      await vi.advanceTimersByTimeAsync(1);
      const err = await outcome;
      expect(err).toBeInstanceOf(TransportError);
      expect((err as TransportError).status).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
