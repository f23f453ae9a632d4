/**
 * Queries behind the admin dashboard (GET /api/admin/metrics) and the make-admin command.
 * Times are ISO-8601 UTC strings everywhere, so comparing them as text compares instants.
 */
import type { AdminMetrics } from '@pingme/shared';
import { recordChange } from './changes';
import type { Db } from './connection';
import type { UserRow } from './schema';
import { findUserByEmail, updateUser } from './users';

const DAY_MS = 24 * 3600_000;

/** The instants the dashboard counts from, for a given now. */
export function metricWindows(now: Date) {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return {
    todayIso: midnight.toISOString(),
    weekIso: new Date(now.getTime() - 7 * DAY_MS).toISOString(),
    monthIso: new Date(now.getTime() - 30 * DAY_MS).toISOString(),
  };
}

async function count(query: {
  executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }>;
}): Promise<number> {
  const r = await query.executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function adminMetrics(db: Db, now = new Date()): Promise<AdminMetrics> {
  const { todayIso, weekIso, monthIso } = metricWindows(now);
  const users = db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'));
  const pings = db.selectFrom('pings').select((eb) => eb.fn.countAll<number>().as('n'));
  const friendships = db.selectFrom('friendships').select((eb) => eb.fn.countAll<number>().as('n'));

  const [
    totalUsers,
    totalPings,
    customPrompts,
    totalFriendships,
    activeUsersWeek,
    newToday,
    newWeek,
    newMonth,
    pendingRequests,
    pingsToday,
  ] = await Promise.all([
    count(users),
    count(pings),
    count(
      db
        .selectFrom('prompts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('isDefault', '=', 0),
    ),
    count(friendships.where('status', '=', 'accepted')),
    // Active: seen by the server (last_active_at) or sent a ping within the last 7 days.
    count(
      users.where((eb) =>
        eb.or([
          eb('lastActiveAt', '>=', weekIso),
          eb(
            'id',
            'in',
            eb.selectFrom('pings').select('senderId').where('createdAt', '>=', weekIso),
          ),
        ]),
      ),
    ),
    count(users.where('createdAt', '>=', todayIso)),
    count(users.where('createdAt', '>=', weekIso)),
    count(users.where('createdAt', '>=', monthIso)),
    count(friendships.where('status', '=', 'pending')),
    count(pings.where('createdAt', '>=', todayIso)),
  ]);

  return {
    totalUsers,
    totalPings,
    customPrompts,
    totalFriendships,
    activeUsersWeek,
    newUsers: { today: newToday, week: newWeek, month: newMonth },
    pendingRequests,
    pingsToday,
    averagePingsPerUser: Math.round((totalPings / Math.max(totalUsers, 1)) * 10) / 10,
    computedAt: now.toISOString(),
  };
}

/**
 * Grants (or revokes) admin status by e-mail, recording a 'user' change so the person's devices
 * learn of it. Undefined when no account has that e-mail.
 */
export async function setAdminByEmail(
  db: Db,
  email: string,
  isAdmin: boolean,
): Promise<{ user: UserRow; changed: boolean } | undefined> {
  return db.transaction().execute(async (trx) => {
    const before = await findUserByEmail(trx, email.trim());
    if (!before) return undefined;
    const flag = isAdmin ? 1 : 0;
    if (before.isAdmin === flag) return { user: before, changed: false };
    const user = await updateUser(trx, before.id, { isAdmin: flag });
    await recordChange(trx, [user.id], 'user', user.id);
    return { user, changed: true };
  });
}
