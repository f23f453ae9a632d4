/**
 * Housekeeping (services/housekeeping.ts): dead sessions and ended rate-limit buckets are
 * removed, live ones stay; it runs at start and on its schedule.
 */
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, makeUser, startTestServer, type TestServer } from '../../test/harness';
import { ServerProcess } from '../../test/server-process';
import { addFailures, hitBucket } from '../db/rate-limits';
import { runHousekeeping } from './housekeeping';

const DAY = 24 * 3600_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: TestServer;
beforeAll(async () => {
  // Every 300 ms, so the schedule is seen working within a test.
  server = await startTestServer({ HOUSEKEEPING_EVERY_MINUTES: '0.005', SESSION_IDLE_DAYS: '14' });
});
afterAll(() => server.stop());

const db = () => server.database.db;
const sessionsOf = (userId: string) =>
  db().selectFrom('sessions').select(['id']).where('userId', '=', userId).execute();

async function signedIn(): Promise<{ userId: string; client: Client }> {
  const u = await makeUser(server);
  expect(await sessionsOf(u.id)).toHaveLength(1);
  return { userId: u.id, client: u.client };
}

describe('housekeeping', () => {
  it('removes sessions past their absolute or idle expiry and keeps a live one', async () => {
    const expired = await signedIn();
    const idle = await signedIn();
    const live = await signedIn();
    const now = Date.now();
    await db()
      .updateTable('sessions')
      .set({ expiresAt: now - 1000 })
      .where('userId', '=', expired.userId)
      .execute();
    await db()
      .updateTable('sessions')
      .set({ lastSeenAt: now - 15 * DAY })
      .where('userId', '=', idle.userId)
      .execute();

    const report = await runHousekeeping(db(), server.config, now);

    expect(report.sessions).toBeGreaterThanOrEqual(2);
    expect(await sessionsOf(expired.userId)).toEqual([]);
    expect(await sessionsOf(idle.userId)).toEqual([]);
    expect(await sessionsOf(live.userId)).toHaveLength(1);
    expect((await live.client.get('/api/user')).status).toBe(200);
  });

  it('removes rate-limit buckets whose window has ended and keeps the current ones', async () => {
    const now = Date.now();
    await hitBucket(db(), 'test:ended', 60_000, now - 120_000);
    await hitBucket(db(), 'test:current', 60_000, now);
    await runHousekeeping(db(), server.config, now);
    const buckets = await db()
      .selectFrom('rateLimits')
      .select('bucket')
      .where('bucket', 'like', 'test:%')
      .execute();
    expect(buckets.map((b) => b.bucket)).toEqual(['test:current']);
  });

  it('keeps sign-in failure counts until they are forgotten (LOGIN_FORGET_HOURS)', async () => {
    const now = Date.now();
    const forget = server.config.loginThrottle.forgetMs;
    // A failure count's reset_at is the time of its last failure: in the past, and still counting.
    await addFailures(db(), ['login:pair:recent@x.test|127.0.0.9'], forget, now - 60_000);
    await addFailures(db(), ['login:pair:old@x.test|127.0.0.9'], forget, now - forget - 60_000);
    await runHousekeeping(db(), server.config, now);
    const left = await db()
      .selectFrom('rateLimits')
      .select('bucket')
      .where('bucket', 'like', 'login:pair:%@x.test|127.0.0.9')
      .execute();
    expect(left.map((b) => b.bucket)).toEqual(['login:pair:recent@x.test|127.0.0.9']);
  });

  it('runs on its schedule: an expired session row disappears by itself', async () => {
    const expired = await signedIn();
    const live = await signedIn();
    await db()
      .updateTable('sessions')
      .set({ expiresAt: Date.now() - 1000 })
      .where('userId', '=', expired.userId)
      .execute();
    // Nothing reads the expired session: only the schedule can remove it.
    const deadline = Date.now() + 15_000;
    while ((await sessionsOf(expired.userId)).length > 0 && Date.now() < deadline) await sleep(50);
    expect(await sessionsOf(expired.userId)).toEqual([]);
    expect(await sessionsOf(live.userId)).toHaveLength(1);
  });

  it('runs once at start', async () => {
    const proc = new ServerProcess();
    try {
      await proc.start();
      const register = (email: string) =>
        new Client(proc.url).post('/api/register', {
          email,
          password: 'start-pass-1',
          firstName: 'Start',
          lastName: 'Up',
        });
      const gone = await register('gone@start.test');
      const kept = await register('kept@start.test');
      expect([gone.status, kept.status]).toEqual([201, 201]);
      await proc.stop();
      const file = new BetterSqlite3(proc.dbFile);
      file
        .prepare('UPDATE sessions SET expires_at = ? WHERE user_id = ?')
        .run(Date.now() - 1000, gone.body.id);
      file.close();

      await proc.start();
      const after = new BetterSqlite3(proc.dbFile, { readonly: true });
      const count = (userId: string) =>
        (
          after.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?').get(userId) as {
            n: number;
          }
        ).n;
      try {
        expect(count(gone.body.id)).toBe(0);
        expect(count(kept.body.id)).toBe(1);
      } finally {
        after.close();
      }
    } finally {
      await proc.dispose();
    }
  });
});
