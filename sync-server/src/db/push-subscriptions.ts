/**
 * Web Push subscriptions: one row per browser push endpoint, owned by whoever subscribed it
 * last (a browser that signs in as someone else hands its endpoint over, with the same keys).
 */
import { randomUUID } from 'node:crypto';
import type { PushSubscriptionInfo } from '@pingme/shared';
import type { Selectable } from 'kysely';
import type { Db } from './connection';
import { nowIso } from './connection';
import type { PushSubscriptionsTable } from './schema';

export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

export function toInfo(r: PushSubscriptionRow): PushSubscriptionInfo {
  return { id: r.id, endpoint: r.endpoint, deviceId: r.deviceId, createdAt: r.createdAt };
}

export async function findSubscriptionByEndpoint(
  db: Db,
  endpoint: string,
): Promise<PushSubscriptionRow | undefined> {
  return db
    .selectFrom('pushSubscriptions')
    .selectAll()
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
}

/** Creates the endpoint's row, or takes it over with fresh keys; `created` tells which. */
export async function upsertSubscription(
  db: Db,
  s: { userId: string; endpoint: string; p256dh: string; auth: string; deviceId: string | null },
): Promise<{ row: PushSubscriptionRow; created: boolean }> {
  const existing = await findSubscriptionByEndpoint(db, s.endpoint);
  if (existing) {
    const row = await db
      .updateTable('pushSubscriptions')
      .set({ userId: s.userId, p256dh: s.p256dh, auth: s.auth, deviceId: s.deviceId })
      .where('id', '=', existing.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, created: false };
  }
  const row = await db
    .insertInto('pushSubscriptions')
    .values({ id: randomUUID(), ...s, createdAt: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, created: true };
}

/** Removes the endpoint only if it belongs to userId; true when a row went. */
export async function deleteOwnSubscription(
  db: Db,
  userId: string,
  endpoint: string,
): Promise<boolean> {
  const r = await db
    .deleteFrom('pushSubscriptions')
    .where('endpoint', '=', endpoint)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The push service said the endpoint is gone (404/410): forget it. */
export async function deleteSubscriptionById(db: Db, id: string): Promise<void> {
  await db.deleteFrom('pushSubscriptions').where('id', '=', id).execute();
}

export async function subscriptionsOf(db: Db, userId: string): Promise<PushSubscriptionRow[]> {
  return db
    .selectFrom('pushSubscriptions')
    .selectAll()
    .where('userId', '=', userId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

/** Everyone who has at least one subscription (the notifier keeps this set in memory). */
export async function usersWithSubscriptions(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('pushSubscriptions').select('userId').distinct().execute();
  return rows.map((r) => r.userId);
}

export async function hasSubscription(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('pushSubscriptions')
    .select('id')
    .where('userId', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
