/**
 * The device's database. Screens read domain data from here (useLiveQuery); every write goes
 * into a table and an outbox row in one transaction (see sync/outbox.ts).
 */
import Dexie, { type EntityTable } from 'dexie';
import {
  uuidv7,
  type Anchor,
  type Moment,
  type Mood,
  type MutationName,
  type Ping,
  type Prompt,
  type SelfUser,
  type SyncFriendship,
  type SyncUser,
} from '@pingme/shared';
import { DB_NAME, SCHEMA_VERSIONS } from './schema';

/** Typed key/value rows of the `meta` table. */
export interface MetaValues {
  deviceId: string;
  /** The change-feed cursor of GET /api/sync/pull (`since`); absent until the first pull. */
  cursor: number;
  /** The signed-in person as last seen from GET /api/user, so the app knows them offline. */
  currentUser: SelfUser;
}
export type MetaKey = keyof MetaValues;
export interface MetaRow<K extends MetaKey = MetaKey> {
  key: K;
  value: MetaValues[K];
}

export const OUTBOX_STATUSES = ['pending', 'sending', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** What every outbox entry holds besides the write itself. */
interface OutboxEntryBase {
  seq?: number;
  id: string;
  idempotencyKey: string;
  createdAt: string;
  attempts: number;
  status: OutboxStatus;
  lastError?: string;
  /**
   * What this write did to Dexie, so the engine can undo it when the server refuses it for good,
   * and re-apply it on top of server state after a pull while it still waits (sync/local-write.ts).
   */
  effects?: WriteEffect[];
  /** The `table:key` of each row in `effects` (an index: which rows waiting writes hold). */
  rows?: string[];
  /** The spec's error toast for a final refusal (title 'Error' unless given). */
  errorToast?: { title?: string; description: string; preferServerMessage?: boolean };
  /**
   * Who made the write (the signed-in person then), so it never goes out under someone else's
   * session (sync/device-owner.ts). Absent: no one was known to be signed in.
   */
  userId?: string;
  /**
   * The server's latest version of rows this write touches (`table:key` → row, null: gone), as
   * pulls brought them while the write waited under its optimistic row. The pull does not send
   * them again, so acknowledging or refusing the write puts these back (sync/effects.ts).
   */
  serverRows?: Record<string, Record<string, unknown> | null>;
  /**
   * The cursor of the pull page each of `serverRows` came from: an acknowledgement whose change
   * number is above it knows that version predates the write (sync/effects.ts).
   */
  serverCursors?: Record<string, number>;
}

/**
 * One write waiting for the server, sent in `seq` order with its Idempotency-Key: a named
 * mutation (shared/src/mutations.ts) and its arguments, parsed by the mutation's schema when the
 * write was made (sync/local-write.ts).
 */
export interface MutationOutboxRow extends OutboxEntryBase {
  name: MutationName;
  args: Record<string, unknown>;
}

/**
 * A write queued by an app older than named mutations (its REST call) that the Dexie upgrade to
 * version 4 could not convert (db/schema.ts): it is still sent as it is, and the server reads it.
 */
export interface RestOutboxRow extends OutboxEntryBase {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body: unknown;
}

export type OutboxRow = MutationOutboxRow | RestOutboxRow;

/** What an entry says it does, for logs: its mutation's name, or its REST call. */
export function describeEntry(row: OutboxRow): string {
  return 'name' in row ? row.name : `${row.method} ${row.path}`;
}

/** The tables a write may change optimistically. */
export type EffectTable =
  'users' | 'friendships' | 'prompts' | 'pings' | 'anchors' | 'moods' | 'moments';

/** One row changed by a write: its value before (null: it did not exist) and after (null: deleted). */
export interface WriteEffect {
  table: EffectTable;
  key: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A cached answer of a server-computed screen. */
export interface CacheRow<T = unknown> {
  key: string;
  value: T;
  computedAt: string;
}

export class PingMeDb extends Dexie {
  meta!: EntityTable<MetaRow, 'key'>;
  outbox!: EntityTable<OutboxRow, 'seq'>;
  /** The pull's `data`, per entity (SyncEntityData). */
  users!: EntityTable<SyncUser, 'id'>;
  friendships!: EntityTable<SyncFriendship, 'id'>;
  prompts!: EntityTable<Prompt, 'id'>;
  pings!: EntityTable<Ping, 'id'>;
  anchors!: EntityTable<Anchor, 'id'>;
  moods!: EntityTable<Mood, 'id'>;
  moments!: EntityTable<Moment, 'id'>;
  cache!: EntityTable<CacheRow, 'key'>;

  constructor(name = DB_NAME) {
    super(name);
    for (const v of SCHEMA_VERSIONS) {
      const version = this.version(v.version).stores(v.stores);
      if (v.upgrade) version.upgrade(v.upgrade);
    }
  }
}

export const db = new PingMeDb();

export async function getMeta<K extends MetaKey>(key: K): Promise<MetaValues[K] | undefined> {
  const row = (await db.meta.get(key)) as MetaRow<K> | undefined;
  return row?.value;
}

export async function setMeta<K extends MetaKey>(key: K, value: MetaValues[K]): Promise<void> {
  await db.meta.put({ key, value } as MetaRow);
}

export async function deleteMeta(key: MetaKey): Promise<void> {
  await db.meta.delete(key);
}

/** This device's stable id, created on first use. */
export async function ensureDeviceId(): Promise<string> {
  return db.transaction('rw', db.meta, async () => {
    const existing = await getMeta('deviceId');
    if (existing) return existing;
    const id = uuidv7();
    await setMeta('deviceId', id);
    return id;
  });
}

/** Forgets everything that belongs to the signed-in person; the device id stays. */
export async function clearPersonalData(): Promise<void> {
  const personal = db.tables.filter((t) => t.name !== 'meta');
  await db.transaction('rw', [db.meta, ...personal], async () => {
    await Promise.all(personal.map((t) => t.clear()));
    await db.meta.where('key').anyOf(['currentUser', 'cursor', 'ackedChanges']).delete();
  });
}
