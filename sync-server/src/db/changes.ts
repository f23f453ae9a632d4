import type { Db } from './connection';
import { nowIso } from './connection';
import type { SyncEntity } from '@pingme/shared';
import type { ChangeOp } from './schema';

/** Every kind of record a device mirrors; docs/sync.md describes each one's pull shape. */
export type Entity = SyncEntity;


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
