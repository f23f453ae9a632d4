/**
 * The change log (docs/sync.md, "Change log"): one row per affected person per change, numbered
 * per person (1, 2, 3… for each person, from their row in change_counters, migration 008).
 * Writes happen in the write's transaction, as its last step (appendChanges: unit-of-work.ts
 * flushes every unit's rows together); the reads and the pruning serve the pull (sync/pull.ts),
 * the views (sync/views.ts) and each node's live delivery (realtime/relay.ts).
 *
 * Why numbers are gap-free and never seen out of order, on PostgreSQL too: a person's counter row
 * is updated by the same transaction that inserts their rows, so a second writer of that person
 * waits on the row lock until the first commits (or rolls back, freeing its numbers); numbers
 * therefore commit in order, and a reader that sees n has every number below n. One write locks
 * all its people's counters in one statement, in id order, so two writes never wait on each other
 * in a cycle.
 */
import type { SyncEntity } from '@pingme/shared';
import { sql } from 'kysely';
import { compiledOnce } from './compiled';
import type { Db } from './connection';
import { nowIso } from './connection';
import { chunks } from './chunks';
import { isPostgres } from './dialect';
import type { ChangeOp } from './schema';

/** Every kind of record a device mirrors; docs/sync.md describes each one's pull shape. */
export type Entity = SyncEntity;

/** One change-log row to write, before it has its number. */
export interface ChangeRecord {
  userId: string;
  entity: Entity;
  entityId: string;
  op: ChangeOp;
}

/** Two people, one row each (a ping: its sender and receiver), every send: compiled once. */
const bumpPairQuery = compiledOnce((db: Db, first: string, second: string) =>
  db
    .insertInto('changeCounters')
    .values([
      { userId: first, seq: 1, floor: 0 },
      { userId: second, seq: 1, floor: 0 },
    ])
    .onConflict((oc) =>
      oc.column('userId').doUpdateSet((eb) => ({ seq: eb('changeCounters.seq', '+', 1) })),
    )
    .returning(['userId', 'seq']),
);

const insertPairQuery = compiledOnce(
  (
    db: Db,
    first: string,
    firstSeq: number,
    second: string,
    secondSeq: number,
    entity: Entity,
    entityId: string,
    op: ChangeOp,
    createdAt: string,
  ) =>
    db.insertInto('changes').values([
      { userId: first, seq: firstSeq, entity, entityId, op, createdAt },
      { userId: second, seq: secondSeq, entity, entityId, op, createdAt },
    ]),
);

// Any other number of rows (a group's writes are flushed together): compiled once per length of
// the lists, element i of each list making row i (compiled.ts).
const bumpEachQuery = compiledOnce((db: Db, userIds: string[], counts: number[]) =>
  db
    .insertInto('changeCounters')
    .values(userIds.map((userId, i) => ({ userId, seq: counts[i]!, floor: 0 })))
    .onConflict((oc) =>
      oc
        .column('userId')
        .doUpdateSet((eb) => ({ seq: eb('changeCounters.seq', '+', eb.ref('excluded.seq')) })),
    )
    .returning(['userId', 'seq']),
);

const insertEachQuery = compiledOnce(
  (
    db: Db,
    userIds: string[],
    seqs: number[],
    entities: Entity[],
    entityIds: string[],
    ops: ChangeOp[],
    createdAt: string,
  ) =>
    db.insertInto('changes').values(
      userIds.map((userId, i) => ({
        userId,
        seq: seqs[i]!,
        entity: entities[i]!,
        entityId: entityIds[i]!,
        op: ops[i]!,
        createdAt,
      })),
    ),
);

/**
 * Numbers and writes `records` in the caller's transaction (one is opened when it has none):
 * each person's counter goes up by their number of rows, all counters in one statement in id
 * order, then every row in one insert. Answers each record's number, in order.
 */
export async function appendChanges(db: Db, records: readonly ChangeRecord[]): Promise<number[]> {
  if (records.length === 0) return [];
  if (!db.isTransaction) return db.transaction().execute((trx) => appendChanges(trx, records));
  const createdAt = nowIso();
  const first = records[0]!;
  if (
    records.length === 2 &&
    records[1]!.entity === first.entity &&
    records[1]!.entityId === first.entityId &&
    records[1]!.op === first.op &&
    records[1]!.userId !== first.userId
  ) {
    const [a, b] = [first.userId, records[1]!.userId].sort() as [string, string];
    const { rows } = await bumpPairQuery(db, a, b);
    const newest = new Map(rows.map((r) => [r.userId, Number(r.seq)]));
    await insertPairQuery(
      db,
      a,
      newest.get(a)!,
      b,
      newest.get(b)!,
      first.entity,
      first.entityId,
      first.op,
      createdAt,
    );
    return records.map((r) => newest.get(r.userId)!);
  }
  const count = new Map<string, number>();
  for (const r of records) count.set(r.userId, (count.get(r.userId) ?? 0) + 1);
  const people = [...count.keys()].sort();
  const newest = new Map<string, number>();
  for (const part of chunks(people)) {
    const counts = part.map((userId) => count.get(userId)!);
    const { rows } = await bumpEachQuery(db, part, counts);
    for (const r of rows) newest.set(r.userId, Number(r.seq));
  }
  // Each person's rows take their numbers in the order they were recorded.
  const next = new Map([...newest].map(([u, last]) => [u, last - count.get(u)! + 1]));
  const rows = records.map((r) => {
    const seq = next.get(r.userId)!;
    next.set(r.userId, seq + 1);
    return { ...r, seq, createdAt };
  });
  for (const part of chunks(rows)) {
    await insertEachQuery(
      db,
      part.map((r) => r.userId),
      part.map((r) => r.seq),
      part.map((r) => r.entity),
      part.map((r) => r.entityId),
      part.map((r) => r.op),
      createdAt,
    );
  }
  return rows.map((r) => r.seq);
}

/** One change-log row per affected person, numbered at once (scripts and admin work). */
export async function recordChange(
  db: Db,
  userIds: Iterable<string>,
  entity: Entity,
  entityId: string,
  op: ChangeOp = 'upsert',
): Promise<void> {
  const unique = [...new Set(userIds)];
  await appendChanges(
    db,
    unique.map((userId) => ({ userId, entity, entityId, op })),
  );
}

/** Every pull reads it (on PostgreSQL a pull with a cursor reads it with its rows): compiled once. */
const counterQuery = compiledOnce((db: Db, userId: string) =>
  db.selectFrom('changeCounters').select(['seq', 'floor']).where('userId', '=', userId),
);

/** A person's newest change number and the highest one pruned (0 and 0 before any change). */
export async function counterOf(db: Db, userId: string): Promise<{ seq: number; floor: number }> {
  const [r] = (await counterQuery(db, userId)).rows;
  return r ? { seq: Number(r.seq), floor: Number(r.floor) } : { seq: 0, floor: 0 };
}

/** The newest change number of each of these people (absent: none yet). */
export async function countersOf(db: Db, userIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of chunks([...new Set(userIds)])) {
    const rows = await db
      .selectFrom('changeCounters')
      .select(['userId', 'seq'])
      .where('userId', 'in', part)
      .execute();
    for (const r of rows) out.set(r.userId, Number(r.seq));
  }
  return out;
}

/** A change-log row as a pull reads it. */
export interface ChangeRow {
  seq: number;
  entity: string;
  entityId: string;
  op: ChangeOp;
}

/** A pull's rows on SQLite (counterAndChangesAfter): compiled once. */
const changesAfterQuery = compiledOnce((db: Db, userId: string, afterSeq: number, limit: number) =>
  db
    .selectFrom('changes')
    .select(['seq', 'entity', 'entityId', 'op'])
    .where('userId', '=', userId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit),
);

/**
 * A person's counter row (part 0) and their change rows after a cursor (part 1), in one
 * statement (compiled once): a pull with a cursor reads both, and on PostgreSQL each statement is
 * a round trip. One statement also reads both in one snapshot.
 */
const counterAndChangesQuery = compiledOnce(
  (db: Db, userId: string, afterSeq: number, limit: number) =>
    db
      .selectFrom('changeCounters')
      .select([
        sql<number>`0`.as('part'),
        'seq',
        'floor',
        sql<string | null>`null`.as('entity'),
        sql<string | null>`null`.as('entityId'),
        sql<ChangeOp | null>`null`.as('op'),
      ])
      .where('userId', '=', userId)
      .unionAll(
        db
          .selectFrom(
            db
              .selectFrom('changes')
              .select(['seq', 'entity', 'entityId', 'op'])
              .where('userId', '=', userId)
              .where('seq', '>', afterSeq)
              .orderBy('seq')
              .limit(limit)
              .as('c'),
          )
          .select([
            sql<number>`1`.as('part'),
            'c.seq',
            sql<number>`null`.as('floor'),
            'c.entity',
            'c.entityId',
            'c.op',
          ]),
      ),
);

/**
 * The person's newest number and floor (as counterOf), and their rows with seq above `afterSeq`,
 * ascending, at most `limit` of them: what a pull with a cursor reads. On PostgreSQL in one
 * statement (one round trip, one snapshot); on SQLite as two, the counter first, because there
 * the union cost a pull more CPU than the statement it saves (docs/performance.md, "A pull's
 * counter and rows in one statement").
 */
export async function counterAndChangesAfter(
  db: Db,
  userId: string,
  afterSeq: number,
  limit: number,
): Promise<{ counter: { seq: number; floor: number }; rows: ChangeRow[] }> {
  if (!isPostgres(db)) {
    const counter = await counterOf(db, userId);
    return { counter, rows: (await changesAfterQuery(db, userId, afterSeq, limit)).rows };
  }
  let counter = { seq: 0, floor: 0 };
  const rows: ChangeRow[] = [];
  for (const r of (await counterAndChangesQuery(db, userId, afterSeq, limit)).rows) {
    if (Number(r.part) === 0) counter = { seq: Number(r.seq), floor: Number(r.floor) };
    else rows.push({ seq: Number(r.seq), entity: r.entity!, entityId: r.entityId!, op: r.op! });
  }
  // A union's order is its branches' in practice, but only an order by promises it.
  rows.sort((a, b) => a.seq - b.seq);
  return { counter, rows };
}

/**
 * Each person's change rows after their own cursor, ascending, at most `limit` each: one query
 * for all of them (each node's live delivery, realtime/relay.ts).
 */
export async function changesAfterEach(
  db: Db,
  cursors: ReadonlyMap<string, number>,
  limit: number,
): Promise<Map<string, { seq: number; entity: string; entityId: string; op: string }[]>> {
  const rows = await db
    .selectFrom('changes')
    .select(['userId', 'seq', 'entity', 'entityId', 'op'])
    .where((eb) =>
      eb.or(
        [...cursors].map(([u, after]) => eb.and([eb('userId', '=', u), eb('seq', '>', after)])),
      ),
    )
    .orderBy('userId')
    .orderBy('seq')
    .execute();
  const out = new Map<string, { seq: number; entity: string; entityId: string; op: string }[]>();
  for (const r of rows) {
    let list = out.get(r.userId);
    if (!list) out.set(r.userId, (list = []));
    if (list.length < limit) list.push({ ...r, seq: Number(r.seq) });
  }
  return out;
}

/** People with rows created before `cutoff` (ISO), each with the highest such number. */
export async function prunable(db: Db, cutoff: string): Promise<{ userId: string; seq: number }[]> {
  const rows = await db
    .selectFrom('changes')
    .select((eb) => ['userId', eb.fn.max('seq').as('seq')])
    .where('createdAt', '<', cutoff)
    .groupBy('userId')
    .orderBy('userId')
    .execute();
  return rows.map((r) => ({ userId: r.userId, seq: Number(r.seq) }));
}

/**
 * Drops each person's rows up to the given number and raises their floor to it, in one
 * transaction, counters locked in id order (as writers lock them). Answers how many rows went.
 */
export async function pruneUpTo(db: Db, upTo: { userId: string; seq: number }[]): Promise<number> {
  const sorted = [...upTo].sort((a, b) => (a.userId < b.userId ? -1 : 1));
  return db.transaction().execute(async (trx) => {
    let removed = 0;
    for (const { userId, seq } of sorted) {
      await trx
        .insertInto('changeCounters')
        .values({ userId, seq, floor: seq })
        .onConflict((oc) =>
          oc.column('userId').doUpdateSet((eb) => ({
            floor: sql<number>`case when ${eb.ref('changeCounters.floor')} > ${seq} then ${eb.ref('changeCounters.floor')} else ${seq} end`,
          })),
        )
        .execute();
      const r = await trx
        .deleteFrom('changes')
        .where('userId', '=', userId)
        .where('seq', '<=', seq)
        .executeTakeFirst();
      removed += Number(r.numDeletedRows);
    }
    return removed;
  });
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
