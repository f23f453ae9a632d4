/**
 * Values every node must share, generated once by whichever node starts first (migration 009):
 * the first insert wins, every node reads the winner's.
 */
import type { Db } from './connection';

export async function sharedSetting(db: Db, name: string, generate: () => string): Promise<string> {
  await db
    .insertInto('serverSettings')
    .values({ name, value: generate() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('serverSettings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

export async function readSetting(db: Db, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('serverSettings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value;
}

export async function writeSetting(db: Db, name: string, value: string): Promise<void> {
  await db
    .insertInto('serverSettings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}
