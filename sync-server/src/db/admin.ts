/**
 * Queries behind the admin dashboard (GET /api/admin/metrics) and the make-admin command.
 * Times are ISO-8601 UTC strings everywhere, so comparing them as text compares instants.
 */
import type { AdminMetrics } from '@pingme/shared';
import { sql } from 'kysely';
import { recordChange } from './changes';
import type { Db } from './connection';
import { countRows } from './count';
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

export async function adminMetrics(db: Db, now = new Date()): Promise<AdminMetrics> {
  const { todayIso, weekIso, monthIso } = metricWindows(now);
  const users = db.selectFrom('users');
  const pings = db.selectFrom('pings');
  const friendships = db.selectFrom('friendships');

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
    countRows(users),
    countRows(pings),
    countRows(db.selectFrom('prompts').where('isDefault', '=', 0)),
    countRows(friendships.where('status', '=', 'accepted')),
    // Active: seen by the server (last_active_at) or sent a ping within the last 7 days.
    countRows(
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
    countRows(users.where('createdAt', '>=', todayIso)),
    countRows(users.where('createdAt', '>=', weekIso)),
    countRows(users.where('createdAt', '>=', monthIso)),
    countRows(friendships.where('status', '=', 'pending')),
    countRows(pings.where('createdAt', '>=', todayIso)),
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
    daily: await dailyTrends(db, now),
    computedAt: now.toISOString(),
  };
}

/** How many UTC days the dashboard's trends show, today included. */
export const TREND_DAYS = 30;

/**
 * Per UTC day of the last TREND_DAYS (oldest first): sign-ups, pings, and active people (a ping
 * sent, a reaction or a mood shared that day). Grouped in the database by the ISO date's first ten
 * characters (`YYYY-MM-DD`), which SQLite and PostgreSQL both read the same way.
 */
export async function dailyTrends(db: Db, now: Date): Promise<AdminMetrics['daily']> {
  const firstDay = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (TREND_DAYS - 1) * DAY_MS,
  );
  const from = firstDay.toISOString();
  const perDay = async (query: ReturnType<typeof sql<{ day: string; n: number | string }>>) =>
    new Map((await query.execute(db)).rows.map((r) => [r.day, Number(r.n)] as [string, number]));
  const [signUps, pings, active] = await Promise.all([
    perDay(sql`select substr(created_at, 1, 10) as day, count(*) as n from users
      where created_at >= ${from} group by substr(created_at, 1, 10)`),
    perDay(sql`select substr(created_at, 1, 10) as day, count(*) as n from pings
      where created_at >= ${from} group by substr(created_at, 1, 10)`),
    perDay(sql`select day, count(distinct person) as n from (
        select substr(created_at, 1, 10) as day, sender_id as person from pings where created_at >= ${from}
        union select substr(created_at, 1, 10), user_id from reactions where created_at >= ${from}
        union select substr(created_at, 1, 10), user_id from moods where created_at >= ${from}
      ) as acts group by day`),
  ]);
  return Array.from({ length: TREND_DAYS }, (_, i) => {
    const day = new Date(firstDay.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    return {
      day,
      signUps: signUps.get(day) ?? 0,
      pings: pings.get(day) ?? 0,
      activePeople: active.get(day) ?? 0,
    };
  });
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
