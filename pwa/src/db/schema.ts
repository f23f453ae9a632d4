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
    stores: {
      meta: 'key',
      outbox: '++seq, &id, status',
      users: 'id',
      friends: 'id',
      friendRequests: 'requestId',
      prompts: 'id, isDefault',
      pings: 'id, senderId, receiverId, createdAt',
      reactions: 'id, pingId',
      anchors: 'id, friendId',
      moods: 'id, friendId, createdAt',
    },
  },
];
