import type { Db } from './connection';
import { nowIso } from './connection';
import type { TokensTable } from './schema';

export async function insertToken(
  db: Db,
  t: {
    id: string;
    userId: string;
    kind: TokensTable['kind'];
    tokenHash: string;
    expiresAt: number;
  },
) {
  await db
    .insertInto('tokens')
    .values({ ...t, usedAt: null, createdAt: nowIso() })
    .execute();
}

export async function findToken(db: Db, kind: TokensTable['kind'], tokenHash: string) {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('kind', '=', kind)
    .where('tokenHash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a token used; returns false when another request used it first. */
export async function consumeToken(db: Db, id: string): Promise<boolean> {
  const r = await db
    .updateTable('tokens')
    .set({ usedAt: nowIso() })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Using a token of a kind makes that person's other unused ones of the kind worthless. */
export async function revokeTokens(db: Db, userId: string, kind: TokensTable['kind']) {
  await db
    .updateTable('tokens')
    .set({ usedAt: nowIso() })
    .where('userId', '=', userId)
    .where('kind', '=', kind)
    .where('usedAt', 'is', null)
    .execute();
}
