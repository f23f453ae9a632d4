/**
 * The Dexie schema as an append-only list of versions: a shipped version is never edited, a
 * change is a new entry at the end (with an `upgrade` when rows need rewriting).
 */
import type { Transaction } from 'dexie';

export const DB_NAME = 'pingme';

export interface SchemaVersion {
  version: number;
  /** Dexie store specs: primary key first, then indexes. `null` deletes a table. */
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void> | void;
}

export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    version: 1,
    // One table per entity of the sync protocol (shared/src/schemas/sync.ts, SYNC_ENTITIES);
    // reactions travel inside their ping, as the pull delivers them.
    stores: {
      meta: 'key',
      outbox: '++seq, &id, status',
      users: 'id, relation',
      friendships: 'id, otherUserId, [status+direction]',
      prompts: 'id, isDefault, ownerId',
      pings: 'id, senderId, receiverId, createdAt',
      anchors: 'id, friendId, userId, status',
      moods: 'id, friendId, userId, createdAt',
      moments: 'id, pingId, createdAt',
    },
  },
  {
    version: 2,
    // Last answers of server-computed screens (insights, analytics, energy, admin), shown offline
    // with the time they were computed.
    stores: { cache: 'key' },
  },
  {
    version: 3,
    // A received ping that has been read has a readAt (the server sets both together), so this
    // index holds exactly the read ones: unread = count(receiverId) - count([receiverId+readAt]),
    // two index counts instead of reading every received ping (db/queries.ts).
    stores: { pings: 'id, senderId, receiverId, createdAt, [receiverId+readAt]' },
  },
];
