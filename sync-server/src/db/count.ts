/** Counting the rows a query finds, the way every count of the server is written. */
import { expressionBuilder, type SelectQueryBuilder } from 'kysely';

/**
 * `select count(*) as "n"` from `query` (its tables and conditions; nothing selected yet), as a
 * number: PostgreSQL answers counts as int8.
 */
export async function countRows<DB, TB extends keyof DB>(
  query: SelectQueryBuilder<DB, TB, object>,
): Promise<number> {
  const n = expressionBuilder<DB, TB>().fn.countAll().as('n');
  // Kysely cannot name the selection's type for a table it does not know yet: it is { n }.
  const r = (await query.select(n).executeTakeFirstOrThrow()) as { n: unknown };
  return Number(r.n);
}
