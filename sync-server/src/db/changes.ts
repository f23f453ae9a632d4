/**
 * The change log (docs/sync.md, "Change log"): one row per affected person per change. Writes
 * happen inside mutate()'s transaction; the reads and the pruning serve the pull (sync/pull.ts)
 * and the views (sync/views.ts), which hold the protocol's logic.
 */
import type { SyncEntity } from '@pingme/shared';
import { sql } from 'kysely';
import { compiledOnce } from './compiled';
import type { Db } from './connection';
import { nowIso } from './connection';
import { chunks } from './prompts';
import type { ChangeOp } from './schema';

/** Every kind of record a device mirrors; docs/sync.md describes each one's pull shape. */
export type Entity = SyncEntity;

/** Two people (a ping: its sender and receiver), every send: compiled once (db/compiled.ts). */
const recordPairQuery = compiledOnce(
  (
    db: Db,
    first: string,
    second: string,
    entity: Entity,
    entityId: string,
    op: ChangeOp,
    createdAt: string,
  ) =>
    db.insertInto('changes').values([
      { userId: first, entity, entityId, op, createdAt },
      { userId: second, entity, entityId, op, createdAt },
    ]),
);

/** One change-log row per affected user, in the caller's transaction. */
export async function recordChange(
  db: Db,
  userIds: Iterable<string>,
  entity: Entity,
  entityId: string,
  op: ChangeOp = 'upsert',
): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  const createdAt = nowIso();
  if (unique.length === 2) {
    await recordPairQuery(db, unique[0]!, unique[1]!, entity, entityId, op, createdAt);
    return;
  }
  await db
    .insertInto('changes')
    .values(unique.map((userId) => ({ userId, entity, entityId, op, createdAt })))
    .execute();
}

export async function latestSeq(db: Db): Promise<number> {
  const r = await db
    .selectFrom('changes')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(r?.seq ?? 0);
}

/**
 * The lowest and the highest seq in the log: `first` null and `last` 0 when it is empty.
 * Two scalar subqueries, because SQLite answers a lone min() or max() from the end of the
 * primary key but scans the whole log for both in one SELECT (every pull asks this).
 */
export async function seqRange(db: Db): Promise<{ first: number | null; last: number }> {
  const r = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('changes')
        .select((c) => c.fn.min('seq').as('s'))
        .as('first'),
      eb
        .selectFrom('changes')
        .select((c) => c.fn.max('seq').as('s'))
        .as('last'),
    ])
    .executeTakeFirst();
  return {
    first: r?.first == null ? null : Number(r.first),
    last: r?.last == null ? 0 : Number(r.last),
  };
}

/** Deletes the rows created before `cutoff` (ISO) whose seq is below `belowSeq`; how many went. */
export async function deleteChangesBefore(
  db: Db,
  cutoff: string,
  belowSeq: number,
): Promise<number> {
  const r = await db
    .deleteFrom('changes')
    .where('createdAt', '<', cutoff)
    .where('seq', '<', belowSeq)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** userId's rows with seq above `afterSeq`, ascending, at most `limit` of them. */
export async function changesAfter(
  db: Db,
  userId: string,
  afterSeq: number,
  limit: number,
): Promise<{ seq: number; entity: string; entityId: string }[]> {
  return db
    .selectFrom('changes')
    .select(['seq', 'entity', 'entityId'])
    .where('userId', '=', userId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/**
 * Everyone other than `exceptUserId` that rows about these records of `entity` were written
 * for, distinct. Names the people of a record that no longer exists. The entity is written into
 * the SQL as a literal (it is one of SYNC_ENTITIES, never input) so that SQLite can use the
 * partial index of friendship rows (migration 006) instead of scanning the whole log.
 */
export async function otherRecipients(
  db: Db,
  entity: Entity,
  entityIds: string[],
  exceptUserId: string,
): Promise<string[]> {
  const out = new Set<string>();
  for (const part of chunks([...new Set(entityIds)])) {
    const rows = await db
      .selectFrom('changes')
      .select('userId')
      .distinct()
      .where('entity', '=', sql.lit(entity))
      .where('entityId', 'in', part)
      .where('userId', '!=', exceptUserId)
      .execute();
    for (const r of rows) out.add(r.userId);
  }
  return [...out];
}
