import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  makeFriends,
  makeUser,
  startTestServer,
  verifyEmailOf,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import {
  startMailSink,
  tokenIn,
  VERIFY_SUBJECT,
  RESET_SUBJECT,
  type MailSink,
} from '../../test/mail-sink';
import { ServerProcess } from '../../test/server-process';
import { insertDemoPing, insertDemoReaction } from '../db/demo-data';
import { updateUser } from '../db/users';

const ADMIN_EMAIL = 'boss@admin.test';
const HOUR = 3600_000;
const DAY = 24 * HOUR;

let server: TestServer;
let mail: MailSink;
beforeAll(async () => {
  mail = await startMailSink();
  server = await startTestServer({
    ADMIN_EMAILS: ` ${ADMIN_EMAIL.toUpperCase()} ,other@x.test,listed@x.test,reset@x.test`,
    SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
  });
});
afterAll(async () => {
  await server.stop();
  await mail.close();
});

const db = () => server.database.db;
const ago = (ms: number) => new Date(Date.now() - ms);

describe('GET /api/admin/metrics', () => {
  let boss: MadeUser;
  let pingTimes: Date[];

  beforeAll(async () => {
    boss = await verifyEmailOf(server, await makeUser(server, { email: ADMIN_EMAIL }));
    const [u1, u2, u3, u4] = [
      await makeUser(server),
      await makeUser(server),
      await makeUser(server),
      await makeUser(server),
    ] as [MadeUser, MadeUser, MadeUser, MadeUser];
    // 2 friendships, 2 pending requests
    await makeFriends(u1, u2);
    await makeFriends(u1, u3);
    expect((await u2.client.post('/api/friends/request', { friendId: u3.id })).status).toBe(201);
    expect((await u4.client.post('/api/friends/request', { friendId: u1.id })).status).toBe(201);

    // 2 custom prompts and 1 default one
    const now = new Date().toISOString();
    const prompt = (ownerId: string | null, isDefault: number) => ({
      id: randomUUID(),
      ownerId,
      text: 'Ping me when you need a hug',
      emoji: '🤗',
      isDefault,
      position: 0,
      createdAt: now,
      updatedAt: now,
    });
    await db()
      .insertInto('prompts')
      .values([prompt(u1.id, 0), prompt(u2.id, 0), prompt(null, 1)])
      .execute();

    // 4 pings: three senders within the week, one 20 days ago
    pingTimes = [ago(60_000), ago(2 * HOUR), ago(3 * DAY), ago(20 * DAY)];
    const senders = [u1, u2, u3, u4];
    const receivers = [u2, u1, u1, u1];
    for (let i = 0; i < 4; i++) {
      await insertDemoPing(db(), {
        senderId: senders[i]!.id,
        receiverId: receivers[i]!.id,
        promptText: 'Ping me when you need a hug',
        promptEmoji: '🤗',
        createdAt: pingTimes[i]!,
        read: false,
      });
    }

    // Nobody but the admin has been seen within the week; u3 joined 10 days ago, u4 40.
    for (const u of [u1, u2, u3, u4]) {
      await updateUser(db(), u.id, { lastActiveAt: ago(10 * DAY).toISOString() });
    }
    await updateUser(db(), u3.id, { createdAt: ago(10 * DAY).toISOString() });
    await updateUser(db(), u4.id, { createdAt: ago(40 * DAY).toISOString() });
  });

  it('counts exactly what was created', async () => {
    expect(boss.user.isAdmin).toBe(true);
    const res = await boss.client.get('/api/admin/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    const pingsToday = pingTimes.filter((t) => t >= midnight).length;
    // boss, u1 and u2 registered just now (u3 10 days ago, u4 40 days ago)
    const justNow = new Date() >= midnight ? 3 : 0;
    expect(res.body).toEqual({
      totalUsers: 5,
      totalPings: 4,
      customPrompts: 2,
      totalFriendships: 2,
      // the admin (seen now) and u1, u2, u3 (sent pings this week); not u4
      activeUsersWeek: 4,
      newUsers: { today: justNow, week: 3, month: 4 },
      pendingRequests: 2,
      pingsToday,
      averagePingsPerUser: 0.8,
      daily: expect.any(Array),
      computedAt: expect.any(String),
    });
    expect(Math.abs(Date.parse(res.body.computedAt) - Date.now())).toBeLessThan(60_000);
  });

  it('follows changes: new people, a request and its acceptance', async () => {
    const before = (await boss.client.get('/api/admin/metrics')).body;
    const a = await makeUser(server);
    const b = await makeUser(server);
    const req = await a.client.post('/api/friends/request', { friendId: b.id });
    // b's device loads their requests: b has been seen by the server now, too
    expect((await b.client.get('/api/friends/pending')).body.received).toHaveLength(1);
    const mid = (await boss.client.get('/api/admin/metrics')).body;
    expect(mid.totalUsers).toBe(before.totalUsers + 2);
    expect(mid.pendingRequests).toBe(before.pendingRequests + 1);
    expect(mid.activeUsersWeek).toBe(before.activeUsersWeek + 2);
    // 4 pings over 7 people, rounded to one decimal
    expect(mid.averagePingsPerUser).toBe(0.6);
    await b.client.post('/api/friends/accept', { requestId: req.body.requestId });
    const after = (await boss.client.get('/api/admin/metrics')).body;
    expect(after.pendingRequests).toBe(before.pendingRequests);
    expect(after.totalFriendships).toBe(before.totalFriendships + 1);
  });
});

describe('who may see the metrics', () => {
  it('a signed-in person who is not an admin is 403', async () => {
    const u = await makeUser(server);
    expect(u.user.isAdmin).toBe(false);
    const res = await u.client.get('/api/admin/metrics');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'Access denied. Admin privileges required.',
      code: 'forbidden',
    });
  });

  it('signed out is 401', async () => {
    const res = await server.client().get('/api/admin/metrics');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Unauthorized');
  });

  it('admin status granted on the server takes effect on the next call, and so does revoking', async () => {
    const u = await makeUser(server);
    expect((await u.client.get('/api/admin/metrics')).status).toBe(403);
    await updateUser(db(), u.id, { isAdmin: 1 });
    expect((await u.client.get('/api/admin/metrics')).status).toBe(200);
    await updateUser(db(), u.id, { isAdmin: 0 });
    expect((await u.client.get('/api/admin/metrics')).status).toBe(403);
  });

  it('ADMIN_EMAILS applies at sign-in to a verified account that existed before', async () => {
    const u = await verifyEmailOf(server, await makeUser(server, { email: 'other@x.test' }));
    expect(u.user.isAdmin).toBe(true);
    await updateUser(db(), u.id, { isAdmin: 0 });
    const c = server.client();
    const login = await c.post('/api/login', { email: u.email, password: u.password });
    expect(login.body.isAdmin).toBe(true);
    expect((await c.get('/api/admin/metrics')).status).toBe(200);
  });
});

describe('ADMIN_EMAILS needs a verified address', () => {
  it('a sign-up with a listed address (any case) is no admin until its mail link is opened', async () => {
    const stranger = server.client();
    const res = await stranger.post('/api/register', {
      email: 'Listed@X.test',
      password: 'not-the-owner',
      firstName: 'Mallory',
      lastName: 'Imposter',
    });
    expect(res.status).toBe(201);
    expect(res.body.isAdmin).toBe(false);
    expect((await stranger.get('/api/admin/metrics')).status).toBe(403);
    expect((await stranger.get('/api/admin/reports')).status).toBe(403);
    // Signing in again changes nothing while the address is unproven.
    const again = await server
      .client()
      .post('/api/login', { email: 'listed@x.test', password: 'not-the-owner' });
    expect(again.body.isAdmin).toBe(false);

    // The address's owner opens the link in the verification mail: now it counts.
    const [verify] = await mail.waitForMail('listed@x.test', VERIFY_SUBJECT);
    const opened = await server
      .client()
      .get(`/api/verify-email?token=${tokenIn(verify!, '/verify-email')}`);
    expect(opened.status).toBe(200);
    expect((await stranger.get('/api/user')).body.isAdmin).toBe(true);
    expect((await stranger.get('/api/admin/metrics')).status).toBe(200);
  });

  it('a reset link opened by the address owner proves the address too', async () => {
    const squatter = await makeUser(server, { email: 'reset@x.test' });
    expect(squatter.user.isAdmin).toBe(false);
    await server.client().post('/api/forgot-password', { email: 'reset@x.test' });
    const [reset] = await mail.waitForMail('reset@x.test', RESET_SUBJECT);
    const done = await server.client().post('/api/reset-password', {
      token: tokenIn(reset!, '/reset-password'),
      password: 'the-real-owner',
    });
    expect(done.status).toBe(200);
    // The squatter's session ended with the reset; the owner signs in as an admin.
    expect((await squatter.client.get('/api/admin/metrics')).status).toBe(401);
    const owner = server.client();
    const login = await owner.post('/api/login', {
      email: 'reset@x.test',
      password: 'the-real-owner',
    });
    expect(login.body.isAdmin).toBe(true);
    expect((await owner.get('/api/admin/metrics')).status).toBe(200);
  });

  it('a start revokes admin rights that an unverified listed address got before this rule', async () => {
    const proc = new ServerProcess({ env: { ADMIN_EMAILS: 'early@x.test' } });
    try {
      await proc.start();
      const c = new Client(proc.url);
      const res = await c.post('/api/register', {
        email: 'early@x.test',
        password: 'early-pass',
        firstName: 'Early',
        lastName: 'Bird',
      });
      expect(res.body.isAdmin).toBe(false);
      // What the old rule left behind: an unverified listed address with admin rights.
      await proc.stop();
      const { default: Database } = await import('better-sqlite3');
      const file = new Database(proc.dbFile);
      file.prepare("UPDATE users SET is_admin = 1 WHERE email = 'early@x.test'").run();
      file.close();
      await proc.start();
      expect(proc.log).toContain('early@x.test is in ADMIN_EMAILS but was never verified');
      const login = await new Client(proc.url).post('/api/login', {
        email: 'early@x.test',
        password: 'early-pass',
      });
      expect(login.body.isAdmin).toBe(false);
    } finally {
      await proc.dispose();
    }
  });
});

describe('GET /api/admin/metrics: daily trends of the last 30 days', () => {
  it('counts sign-ups, pings and active people per UTC day, oldest first, today last', async () => {
    const fresh = await startTestServer({ ADMIN_EMAILS: 'trends@admin.test' });
    try {
      const boss = await verifyEmailOf(
        fresh,
        await makeUser(fresh, { email: 'trends@admin.test' }),
      );
      const [a, b, c] = [await makeUser(fresh), await makeUser(fresh), await makeUser(fresh)];
      await makeFriends(a, b);
      await makeFriends(c, b);
      const fdb = fresh.database.db;
      const now = new Date();
      const daysAgo = (n: number) => new Date(now.getTime() - n * DAY);
      // C signed up three days ago; A sent two pings today, C one three days ago; B reacted to
      // C's ping a day ago.
      await updateUser(fdb, c.id, { createdAt: daysAgo(3).toISOString() });
      const ping = (from: MadeUser, at: Date) =>
        insertDemoPing(fdb, {
          senderId: from.id,
          receiverId: b.id,
          promptText: 'Ping me when',
          promptEmoji: '💭',
          createdAt: at,
          read: false,
        });
      await ping(a, now);
      await ping(a, now);
      const old = await ping(c, daysAgo(3));
      await insertDemoReaction(fdb, {
        pingId: old,
        userId: b.id,
        reactionType: 'heart',
        createdAt: daysAgo(1),
      });

      const res = await boss.client.get('/api/admin/metrics');
      expect(res.status).toBe(200);
      const daily = res.body.daily as {
        day: string;
        signUps: number;
        pings: number;
        activePeople: number;
      }[];
      expect(daily).toHaveLength(30);
      const dayOf = (d: Date) => d.toISOString().slice(0, 10);
      expect(daily[29]!.day).toBe(dayOf(now));
      expect(daily[0]!.day).toBe(dayOf(daysAgo(29)));
      const on = (d: Date) => daily.find((x) => x.day === dayOf(d))!;
      // Today: the boss, A and B signed up; A sent two pings (one active person).
      expect(on(now)).toMatchObject({ signUps: 3, pings: 2, activePeople: 1 });
      expect(on(daysAgo(1))).toMatchObject({ signUps: 0, pings: 0, activePeople: 1 });
      expect(on(daysAgo(3))).toMatchObject({ signUps: 1, pings: 1, activePeople: 1 });
      expect(daily.reduce((n, x) => n + x.pings, 0)).toBe(3);
    } finally {
      await fresh.stop();
    }
  });
});
