/**
 * GET /api/sync/pull, in the numbered steps of docs/sync.md ("Pull" and "Snapshot").
 * The change log holds, per person, which records changed (not how); a pull answers each changed
 * record's CURRENT state as that person may see it, through the registry in views.ts.
 */
import {
  PULL_DEFAULT_LIMIT,
  SYNC_ENTITIES,
  type PullChange,
  type PullQuery,
  type PullResponse,
  type SyncEntity,
} from '@pingme/shared';
import { z } from 'zod';
import {
  counterAndChangesAfter,
  counterOf,
  prunable,
  pruneUpTo,
  type ChangeRow,
} from '../db/changes';
import type { Db } from '../db/connection';
import { badRequest } from '../errors';
import { views, type EntityRef } from './views';

/** The oldest cursor a person's log can still serve, and their newest change number. */
export interface LogBounds {
  floor: number;
  newest: number;
}

export async function logBounds(db: Db, viewerId: string): Promise<LogBounds> {
  const { seq, floor } = await counterOf(db, viewerId);
  // Rows go only from the old end of a person's log (pruneChangeLog raises the floor as it
  // removes them), so every number above `floor` that was ever written is still there.
  return { floor, newest: seq };
}

/**
 * Retention ("Change log", 5): drops change rows older than the retention, each person's up to their
 * newest old row, and raises their floor so a cursor below it gets a snapshot.
 */
export async function pruneChangeLog(db: Db, retentionMs: number, now = Date.now()) {
  const cutoff = new Date(now - retentionMs).toISOString();
  const people = await prunable(db, cutoff);
  let removed = 0;
  // A few hundred people per transaction: each holds those people's counters briefly.
  for (let i = 0; i < people.length; i += 200) {
    removed += await pruneUpTo(db, people.slice(i, i + 200));
  }
  return removed;
}

// ---------- snapshot continuation tokens ----------

const Token = z.object({
  v: z.literal(1),
  /** The cursor the snapshot ends with: the person's newest change number when it started. */
  c: z.number().int().min(0),
  /** Index into SYNC_ENTITIES of the entity being listed. */
  e: z
    .number()
    .int()
    .min(0)
    .max(SYNC_ENTITIES.length - 1),
  /** The last id listed of that entity (the next page starts after it). */
  a: z.string().max(200).nullable(),
});
type Token = z.infer<typeof Token>;

export function encodeToken(t: Token): string {
  return Buffer.from(JSON.stringify(t)).toString('base64url');
}

function decodeToken(s: string): Token {
  try {
    return Token.parse(JSON.parse(Buffer.from(s, 'base64url').toString('utf8')));
  } catch {
    throw badRequest('Invalid snapshot token: start again without it');
  }
}

// ---------- the pull ----------

export async function pull(db: Db, viewerId: string, query: PullQuery): Promise<PullResponse> {
  const limit = query.limit ?? PULL_DEFAULT_LIMIT;
  const since = query.since;

  // The usual pull, with a cursor: the log's bounds and the caller's change rows after the
  // cursor, ascending, one more than a page to see if more remain (one statement on PostgreSQL).
  let read: { bounds: LogBounds; rows: ChangeRow[] } | undefined;
  if (query.snapshot === undefined && since !== undefined) {
    const { counter, rows } = await counterAndChangesAfter(db, viewerId, since, limit + 1);
    read = { bounds: { floor: counter.floor, newest: counter.seq }, rows };
  }
  const bounds = read?.bounds ?? (await logBounds(db, viewerId));

  // 1. A snapshot in progress continues where its token says (a token from before the database
  //    was replaced, whose cursor is in the future, starts a new snapshot).
  if (query.snapshot !== undefined) {
    const token = decodeToken(query.snapshot);
    const fresh = token.c > bounds.newest;
    return snapshotPage(db, viewerId, fresh ? startToken(bounds) : token, limit);
  }

  // 2. No cursor, a cursor this log never issued (above the person's newest number), or one older
  //    than the retention point: the device cannot be brought up to date from the log, so it gets
  //    a snapshot.
  if (since === undefined || !read || since > bounds.newest || since < bounds.floor) {
    return snapshotPage(db, viewerId, startToken(bounds), limit);
  }

  // 3. The rows read with the bounds.
  const { rows } = read;
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  // The cursor covers what this page read: up to its last row, or, on the last page, up to the
  // person's newest number, read with the rows or before them (every row at or below it had
  // committed).
  const lastRow = page.length ? page[page.length - 1]!.seq : since;
  const cursor = hasMore ? lastRow : Math.max(lastRow, bounds.newest);

  // 4. Collapse: several rows of one record become one change, in the order of their last row.
  const refs = new Map<string, EntityRef>();
  for (const r of page) {
    if (!isSyncEntity(r.entity)) continue;
    const key = refKey(r.entity, r.entityId);
    refs.delete(key);
    refs.set(key, { entity: r.entity, id: r.entityId });
  }

  // 5. Related records whose visibility or content moved with these: a friendship and the other
  //    person, a person and the friendship row (or pending request) that shows their card.
  for (const entity of SYNC_ENTITIES) {
    const related = views[entity].related;
    const ids = idsOf(refs, entity);
    if (!related || ids.length === 0) continue;
    for (const ref of await related(db, viewerId, ids)) {
      const key = refKey(ref.entity, ref.id);
      if (!refs.has(key)) refs.set(key, ref);
    }
  }

  // 6. Current state, one loader call per entity type; what the viewer cannot see (any more) is a
  //    tombstone, whatever the log's op said.
  const changes = await loadChanges(db, viewerId, [...refs.values()], 'tombstones');

  // 7. Answer with the cursor of step 3.
  return { cursor, hasMore, reset: false, snapshot: null, changes };
}

/** S0. A new snapshot's cursor is the person's newest number now, before any record is listed. */
function startToken(bounds: LogBounds): Token {
  return { v: 1, c: bounds.newest, e: 0, a: null };
}

/**
 * Snapshot (docs/sync.md, "Snapshot"): every record the viewer may see, entity by entity in
 * SYNC_ENTITIES order (people before the pings that name them), ids ascending, `limit` per page.
 * Every page carries reset:true and the cursor fixed when the snapshot started, so changes made
 * while it runs are pulled after it (an upsert twice is harmless).
 */
async function snapshotPage(
  db: Db,
  viewerId: string,
  start: Token,
  limit: number,
): Promise<PullResponse> {
  // S1. Walk the entities from the token's position until the page is full.
  const refs: EntityRef[] = [];
  let entityIndex = start.e;
  let after: string | undefined = start.a ?? undefined;
  let remaining = limit;
  while (entityIndex < SYNC_ENTITIES.length && remaining > 0) {
    const entity = SYNC_ENTITIES[entityIndex]!;
    const ids = await views[entity].visibleIds(db, viewerId, after, remaining + 1);
    const taken = ids.slice(0, remaining);
    for (const id of taken) refs.push({ entity, id });
    remaining -= taken.length;
    if (ids.length > taken.length) {
      after = taken[taken.length - 1];
      break;
    }
    entityIndex += 1;
    after = undefined;
  }

  // S2. Load them (one call per entity type); a record that vanished meanwhile is simply absent.
  const changes = await loadChanges(db, viewerId, refs, 'omit');

  // S3. The token for the next page, or the end of the snapshot.
  const hasMore = entityIndex < SYNC_ENTITIES.length;
  return {
    cursor: start.c,
    hasMore,
    reset: true,
    snapshot: hasMore ? encodeToken({ v: 1, c: start.c, e: entityIndex, a: after ?? null }) : null,
    changes,
  };
}

async function loadChanges(
  db: Db,
  viewerId: string,
  refs: EntityRef[],
  missing: 'tombstones' | 'omit',
): Promise<PullChange[]> {
  const loaded = new Map<string, unknown>();
  for (const entity of SYNC_ENTITIES) {
    const ids = [...new Set(refs.filter((r) => r.entity === entity).map((r) => r.id))];
    if (ids.length === 0) continue;
    for (const data of await views[entity].load(db, viewerId, ids)) {
      loaded.set(refKey(entity, data.id), data);
    }
  }
  return refs.flatMap((r): PullChange[] => {
    const data = loaded.get(refKey(r.entity, r.id));
    if (data !== undefined) return [{ entity: r.entity, id: r.id, op: 'upsert', data }];
    return missing === 'tombstones'
      ? [{ entity: r.entity, id: r.id, op: 'delete', data: null }]
      : [];
  });
}

function isSyncEntity(e: string): e is SyncEntity {
  return (SYNC_ENTITIES as readonly string[]).includes(e);
}

function refKey(entity: string, id: string) {
  return `${entity}\u0000${id}`;
}

function idsOf(refs: Map<string, EntityRef>, entity: SyncEntity): string[] {
  return [...refs.values()].filter((r) => r.entity === entity).map((r) => r.id);
}
