/**
 * The signals friendship energy is computed from (docs/energy.md) and the stored snapshots.
 * Each signal is one grouped query over the person's pings, reactions or moods, keyed by friend.
 */
import type { UserSummary } from '@pingme/shared';
import { sql, type Expression, type Selectable } from 'kysely';
import type { Db } from './connection';
import type { EnergySnapshotsTable } from './schema';
import { involves, PARTY_COLUMNS } from './two-people';

const num = (v: unknown) => Number(v ?? 0);
const dayOf = (ref: Expression<string>) => sql<string>`substr(${ref}, 1, 10)`;

/** The person's friends (accepted), optionally only `only`, with their public card. */
export async function friendSummaries(db: Db, me: string, only?: string): Promise<UserSummary[]> {
  let q = db
    .selectFrom('friendships as f')
    .innerJoin('users as u', (j) =>
      j.on((eb) =>
        eb.or([
          eb.and([eb('f.requesterId', '=', me), eb('u.id', '=', eb.ref('f.addresseeId'))]),
          eb.and([eb('f.addresseeId', '=', me), eb('u.id', '=', eb.ref('f.requesterId'))]),
        ]),
      ),
    )
    .select(['u.id', 'u.firstName', 'u.lastName', 'u.profileImageUrl'])
    .where('f.status', '=', 'accepted')
    .where((eb) => involves(eb, 'f.requesterId', 'f.addresseeId', me));
  if (only !== undefined) q = q.where('u.id', '=', only);
  return q.orderBy('u.id').execute();
}

/** The other person of a ping row involving `me`. */
const other = (me: string, r: { senderId: string; receiverId: string }) =>
  r.senderId === me ? r.receiverId : r.senderId;

/** Rows of `table` since `since` between `me` and anyone (or only `only`), either way. */
function rowsWith(db: Db, table: 'pings' | 'moods', me: string, since: string, only?: string) {
  const [x, y] = PARTY_COLUMNS[table];
  let q = db
    .selectFrom(table)
    .where('createdAt', '>=', since)
    .where((eb) => involves(eb, x, y, me));
  if (only !== undefined) q = q.where((eb) => involves(eb, x, y, only));
  return q;
}

/**
 * For `table`: how many of its rows since `since` `me` shares with each other person (or only
 * `only`), either way.
 */
function countsPerOther(table: 'pings' | 'moods') {
  const [x, y] = PARTY_COLUMNS[table];
  return async (db: Db, me: string, since: string, only?: string): Promise<Map<string, number>> => {
    const rows = await rowsWith(db, table, me, since, only)
      .select((eb) => [x, y, eb.fn.countAll<number>().as('n')])
      .groupBy([x, y])
      .execute();
    const out = new Map<string, number>();
    for (const r of rows) {
      const id = r[x] === me ? r[y] : r[x];
      out.set(id, (out.get(id) ?? 0) + num(r.n));
    }
    return out;
  };
}

/** Pings exchanged (both ways) with each other person since `since`. */
export const pingsExchangedSince = countsPerOther('pings');

/** Per sender: pings `me` received since `since`, and how many of them `me` reacted to. */
export async function reactedShareSince(
  db: Db,
  me: string,
  since: string,
  only?: string,
): Promise<Map<string, { received: number; reacted: number }>> {
  let q = db
    .selectFrom('pings as p')
    .leftJoin('reactions as r', (j) => j.onRef('r.pingId', '=', 'p.id').on('r.userId', '=', me))
    .select((eb) => [
      'p.senderId',
      eb.fn.count<number>('p.id').as('received'),
      eb.fn.count<number>('r.id').as('reacted'),
    ])
    .where('p.receiverId', '=', me)
    .where('p.createdAt', '>=', since);
  if (only !== undefined) q = q.where('p.senderId', '=', only);
  const rows = await q.groupBy('p.senderId').execute();
  return new Map(
    rows.map((r) => [r.senderId, { received: num(r.received), reacted: num(r.reacted) }]),
  );
}

/** Moods shared either way with each other person since `since`. */
export const moodsSharedSince = countsPerOther('moods');

/** The UTC days since `since` with at least one ping either way, per other person. */
export async function contactDaysSince(
  db: Db,
  me: string,
  since: string,
  only?: string,
): Promise<Map<string, Set<string>>> {
  const rows = await rowsWith(db, 'pings', me, since, only)
    .select((eb) => ['senderId', 'receiverId', dayOf(eb.ref('createdAt')).as('day')])
    .distinct()
    .execute();
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const id = other(me, r);
    let days = out.get(id);
    if (!days) out.set(id, (days = new Set()));
    days.add(r.day);
  }
  return out;
}

export type EnergySnapshotRow = Selectable<EnergySnapshotsTable>;

export async function loadSnapshots(
  db: Db,
  me: string,
  only?: string,
): Promise<Map<string, EnergySnapshotRow>> {
  let q = db.selectFrom('energySnapshots').selectAll().where('userId', '=', me);
  if (only !== undefined) q = q.where('friendId', '=', only);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.friendId, r]));
}

/** Stores (replacing) the snapshots, one row per person and friend. */
export async function upsertSnapshots(db: Db, rows: EnergySnapshotRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('energySnapshots')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['userId', 'friendId']).doUpdateSet((eb) => ({
        score: eb.ref('excluded.score'),
        level: eb.ref('excluded.level'),
        metrics: eb.ref('excluded.metrics'),
        computedAt: eb.ref('excluded.computedAt'),
      })),
    )
    .execute();
}
