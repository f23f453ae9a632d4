import 'fake-indexeddb/auto';
import type { SyncFriendship } from '@pingme/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { db, setMeta } from '../../db';
import { primeFirstSyncState, readFirstSyncState } from './useFirstSync';

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
  await primeFirstSyncState();
});

describe('the first-sync state that Home and the friend-request banner share', () => {
  it("before the first pull: the requests the server named at start, and never an earlier start's", async () => {
    await primeFirstSyncState(['request-of-a']);
    expect(await readFirstSyncState()).toEqual({ pulled: false, requestIds: ['request-of-a'] });
    // Signed out and in again on the same page, as someone else, and the server did not answer:
    // the banner shows nothing rather than the first person's count.
    await primeFirstSyncState(undefined);
    expect(await readFirstSyncState()).toEqual({ pulled: false, requestIds: [] });
  });

  it("after it: the device's own pending received requests, whatever the server named before", async () => {
    await primeFirstSyncState(['named-at-start']);
    // Only the fields the state reads (its index); the rest of a row does not matter here.
    const row = (id: string, status: string, direction: string) =>
      ({ id, otherUserId: `${id}-person`, status, direction }) as unknown as SyncFriendship;
    await db.friendships.bulkPut([
      row('mine', 'pending', 'received'),
      row('sent', 'pending', 'sent'),
      row('friend', 'accepted', 'received'),
    ]);
    await setMeta('cursor', 7);
    expect(await readFirstSyncState()).toEqual({ pulled: true, requestIds: ['mine'] });
  });
});
