/**
 * The Dexie schema as an append-only list of versions: a shipped version is never edited, a
 * change is a new entry at the end (with an `upgrade` when rows need rewriting).
 */
import { mutationOfRestCall, restCall, type MutationArgs, type MutationName } from '@pingme/shared';
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
  {
    version: 4,
    // Writes are named mutations: outbox rows hold `{name, args}` instead of a REST call. Two
    // indexes keep the drain from reading every waiting row for each batch: `rows` (multi-entry:
    // the `table:key` of each row a write changes) says which rows a waiting write holds, and
    // `userId` whether another person's writes wait (sync/device-owner.ts).
    stores: { outbox: '++seq, &id, status, userId, *rows' },
    upgrade: async (tx) => {
      await tx
        .table('outbox')
        .toCollection()
        .modify((row: Record<string, unknown>) => {
          const effects = (row.effects ?? []) as { table: string; key: string }[];
          row.rows = effects.map((e) => `${e.table}:${e.key}`);
          const named = namedOfRestRow(row);
          if (!named) return;
          delete row.method;
          delete row.path;
          delete row.body;
          row.name = named.name;
          row.args = named.args;
        });
    },
  },
  {
    version: 5,
    // The inbox (/inbox) lists every received ping newest first: this index reads them in that
    // order, a page at a time, without sorting the whole history in memory.
    stores: {
      pings: 'id, senderId, receiverId, createdAt, [receiverId+readAt], [receiverId+createdAt]',
    },
  },
];

/**
 * The named mutation of an outbox row written as a REST call (`{method, path, body}`, before
 * version 4), or undefined when it has none: such a row stays as it is, and the server still reads
 * that shape. The arguments are kept unparsed and in their original key order (the body's fields,
 * then the path's parameters), so the request hash the server computes for `{name, args}` (of the
 * REST call they make: method, filled path, JSON body) equals the one it stored for the REST call:
 * an entry the server already applied is answered from its record, not refused as another
 * request under the same Idempotency-Key. A row whose REST call would not come out exactly the
 * same (a query string, a body that is not an object) is left as it is.
 */
export function namedOfRestRow(
  row: Record<string, unknown>,
): { name: MutationName; args: Record<string, unknown> } | undefined {
  const { method, path, body } = row;
  if (typeof method !== 'string' || typeof path !== 'string' || 'name' in row) return undefined;
  const sent = body ?? {};
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return undefined;
  const found = mutationOfRestCall(method, path, sent);
  if (!found) return undefined;
  const call = restCall(found.name, found.args as MutationArgs<typeof found.name>);
  const same =
    call.method === method &&
    call.path === path &&
    JSON.stringify(call.body) === JSON.stringify(sent);
  return same ? { name: found.name, args: found.args } : undefined;
}
