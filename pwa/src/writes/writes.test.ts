/**
 * Writes of the inbox, bookmarks, prompt edits and the ways back (fake-indexeddb): each puts its
 * optimistic rows and its one outbox entry `{name, args}` in the same transaction, with the
 * arguments the server expects.
 */
import 'fake-indexeddb/auto';
import type { Ping, Prompt, SyncFriendship, UserSummary } from '@pingme/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db';
import { useSession } from '../stores';
import { testId } from '../sync/testing';
import { removeFriend, withdrawFriendRequest } from './friends';
import { bookmarkPing, markAllPingsRead, sendPing } from './pings';
import { updatePrompt } from './prompts';

const ME = testId(1);
const BO = testId(2);
const person = (id: string, firstName: string): UserSummary =>
  ({ id, firstName, lastName: 'T', profileImageUrl: null }) as UserSummary;

function ping(n: number, fields: Partial<Ping> = {}): Ping {
  return {
    id: testId(100 + n),
    kind: 'custom',
    senderId: BO,
    receiverId: ME,
    sender: person(BO, 'Bo'),
    receiver: person(ME, 'Ada'),
    prompt: null,
    customText: `hello ${n}`,
    customEmoji: '💭',
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

const outbox = async () =>
  (await db.outbox.toArray()).map((e) =>
    'name' in e
      ? { name: e.name, args: e.args }
      : { name: undefined, args: {} as Record<string, unknown> },
  );

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
  useSession.getState().setSignedOut();
});

describe('pings', () => {
  it('a send carries writtenAt, the time of the local write, which the pending row shows too', async () => {
    const [row] = await sendPing(
      person(ME, 'Ada'),
      person(BO, 'Bo'),
      {
        kind: 'custom',
        text: 'hi',
      },
      { description: 'x' },
    );
    const [entry] = await outbox();
    expect(entry!.name).toBe('ping.sendCustom');
    expect(entry!.args.writtenAt).toBe(row!.createdAt);
    expect(row!.writtenAt).toBe(row!.createdAt);
  });

  it('mark-all-read turns every unread received ping read in one write', async () => {
    const unread = [ping(1), ping(2)];
    await db.pings.bulkPut([...unread, ping(3, { isRead: true, readAt: '2026-01-01T00:00:01Z' })]);
    await markAllPingsRead(ME, unread);
    expect(await outbox()).toEqual([{ name: 'ping.markAllRead', args: {} }]);
    const rows = await db.pings.toArray();
    expect(rows.every((p) => p.isRead && p.readAt)).toBe(true);
  });

  it('a bookmark marks the row and sends ping.bookmark', async () => {
    const p = ping(1);
    await db.pings.put(p);
    await bookmarkPing(p, true);
    expect((await db.pings.get(p.id))!.isBookmarked).toBe(true);
    expect(await outbox()).toEqual([
      { name: 'ping.bookmark', args: { pingId: p.id, bookmarked: true } },
    ]);
  });
});

describe('prompts and friends', () => {
  it('an edit changes the prompt row and sends prompt.update', async () => {
    const prompt = {
      id: testId(50),
      text: 'Ping me when you see a rainbow',
      emoji: '🌈',
      isDefault: false,
      ownerId: ME,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      assignments: [],
    } as Prompt;
    await db.prompts.put(prompt);
    await updatePrompt(prompt, 'Ping me when you see a double rainbow', '🌈', { description: 'x' });
    expect((await db.prompts.get(prompt.id))!.text).toBe('Ping me when you see a double rainbow');
    expect(await outbox()).toEqual([
      {
        name: 'prompt.update',
        args: { id: prompt.id, text: 'Ping me when you see a double rainbow', emoji: '🌈' },
      },
    ]);
  });

  it('unfriending removes the friendship and the friend from the device, then sends friend.remove', async () => {
    await db.users.put({ ...person(BO, 'Bo'), relation: 'friend' } as never);
    await db.friendships.put({ id: testId(60), otherUserId: BO, status: 'accepted' } as never);
    await removeFriend(BO);
    expect(await db.users.get(BO)).toBeUndefined();
    expect(await db.friendships.count()).toBe(0);
    expect(await outbox()).toEqual([{ name: 'friend.remove', args: { friendId: BO } }]);
  });

  it('withdrawing a sent request removes it and sends friend.decline with its id', async () => {
    const request = { id: testId(61), otherUserId: BO, status: 'pending' } as SyncFriendship;
    await db.friendships.put(request);
    await withdrawFriendRequest(request);
    expect(await db.friendships.count()).toBe(0);
    expect(await outbox()).toEqual([{ name: 'friend.decline', args: { requestId: testId(61) } }]);
  });
});
