/**
 * Snapshot paging for /api/sync/pull (docs/sync.md): one page of the ids of the rows a viewer is
 * a party to, for the tables whose rows link two people.
 */
import type { Db } from './connection';
import { involves, PARTY_COLUMNS, type TwoPersonTable } from './two-people';

/**
 * The snapshot pager of `table`: the ids of its rows with viewerId on either side, ascending,
 * after `afterId`, at most `limit`.
 */
export function idsWithParty(table: TwoPersonTable) {
  const [one, other] = PARTY_COLUMNS[table];
  return async (
    db: Db,
    viewerId: string,
    afterId: string | undefined,
    limit: number,
  ): Promise<string[]> => {
    let q = db
      .selectFrom(table)
      .select('id')
      .where((eb) => involves(eb, one, other, viewerId));
    if (afterId !== undefined) q = q.where('id', '>', afterId);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map((r) => r.id);
  };
}
