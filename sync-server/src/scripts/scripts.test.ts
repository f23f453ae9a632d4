/**
 * The two commands run as a newcomer runs them: child processes through `npx tsx`, against a
 * DATA_DIR in a temporary directory; then their effect is read from the SQLite file and, for the
 * demo, used through a real server (sign in as a demo person).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../test/harness';
import { loadConfig, REPO_ROOT } from '../config';
import { openDatabase, type OpenedDb } from '../db/connection';
import { startServer, type RunningServer } from '../server';
import { verifyPassword } from '../services/passwords';

const SCRIPT_TIMEOUT = 60_000;
let dir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[] = []): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', `sync-server/src/scripts/${script}.ts`, ...args],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, DATA_DIR: dir, ADMIN_EMAILS: '' },
        timeout: SCRIPT_TIMEOUT,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function withDb<T>(fn: (d: OpenedDb) => Promise<T>): Promise<T> {
  const d = await openDatabase(path.join(dir, 'pingme.sqlite'));
  try {
    return await fn(d);
  } finally {
    await d.close();
  }
}

async function snapshot() {
  return withDb(async ({ db }) => {
    const count = async (table: 'users' | 'friendships' | 'pings' | 'reactions' | 'changes') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      users: await count('users'),
      friendships: await count('friendships'),
      pings: await count('pings'),
      reactions: await count('reactions'),
      changes: await count('changes'),
    };
  });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-scripts-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run demo', () => {
  let first: Run;
  beforeAll(async () => {
    first = await run('demo');
  }, SCRIPT_TIMEOUT);

  it('exits 0 and prints how to sign in', () => {
    expect(first.stderr).not.toMatch(/Error/);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('ada@demo.pingme');
    expect(first.stdout).toContain('pingme-demo');
    expect(first.stdout).toMatch(/sign in/i);
  });

  it('creates five people with profiles, one private, all with the demo password', async () => {
    await withDb(async ({ db }) => {
      const users = await db
        .selectFrom('users')
        .selectAll()
        .where('email', 'like', '%@demo.pingme')
        .orderBy('email')
        .execute();
      expect(users.map((u) => u.email)).toEqual([
        'ada@demo.pingme',
        'alan@demo.pingme',
        'grace@demo.pingme',
        'katherine@demo.pingme',
        'margaret@demo.pingme',
      ]);
      for (const u of users) {
        expect(u.firstName).toBeTruthy();
        expect(u.handle).toBeTruthy();
        expect(u.tagline).toBeTruthy();
        expect(u.bio).toBeTruthy();
        expect(u.onboardingCompleted).toBe(1);
        expect(u.isAdmin).toBe(0);
        expect(await verifyPassword('pingme-demo', u.passwordHash!)).toBe(true);
      }
      expect(users.filter((u) => u.profileVisibility === 'private').map((u) => u.email)).toEqual([
        'alan@demo.pingme',
      ]);
    });
  });

  it('links them: friendships, one pending request, pings over several days with a reaction', async () => {
    await withDb(async ({ db }) => {
      const friendships = await db.selectFrom('friendships').selectAll().execute();
      expect(friendships.filter((f) => f.status === 'accepted')).toHaveLength(5);
      expect(friendships.filter((f) => f.status === 'pending')).toHaveLength(1);
      const pings = await db.selectFrom('pings').selectAll().orderBy('createdAt').execute();
      expect(pings.length).toBeGreaterThanOrEqual(5);
      for (const p of pings) {
        expect(p.kind).toBe('prompt');
        expect(p.promptText).toMatch(/^Ping me when /);
        expect(p.promptEmoji).toBeTruthy();
        // sent from one of the default prompts, as it read then
        const prompt = await db
          .selectFrom('prompts')
          .selectAll()
          .where('id', '=', p.promptId!)
          .executeTakeFirstOrThrow();
        expect(prompt).toMatchObject({ isDefault: 1, text: p.promptText, emoji: p.promptEmoji });
        // every ping is between friends
        expect(
          friendships.some(
            (f) =>
              f.status === 'accepted' &&
              [f.requesterId, f.addresseeId].sort().join() ===
                [p.senderId, p.receiverId].sort().join(),
          ),
        ).toBe(true);
      }
      expect(pings.some((p) => p.isRead === 1)).toBe(true);
      expect(pings.some((p) => p.isRead === 0)).toBe(true);
      expect(new Set(pings.map((p) => p.createdAt.slice(0, 10))).size).toBeGreaterThanOrEqual(3);
      expect(pings.some((p) => p.promptText === 'Ping me when you need a hug')).toBe(true);
      // ids sort like their times (UUIDv7)
      expect(pings.map((p) => p.id)).toEqual(pings.map((p) => p.id).sort());
      const reactions = await db.selectFrom('reactions').selectAll().execute();
      expect(reactions).toHaveLength(1);
      expect(pings.map((p) => p.id)).toContain(reactions[0]!.pingId);

      // The change log tells both people of each friendship and each ping.
      const changes = await db.selectFrom('changes').selectAll().execute();
      for (const f of friendships) {
        const users = changes
          .filter((c) => c.entity === 'friendship' && c.entityId === f.id)
          .map((c) => c.userId)
          .sort();
        expect(users).toEqual([f.requesterId, f.addresseeId].sort());
      }
      for (const p of pings) {
        const users = new Set(
          changes.filter((c) => c.entity === 'ping' && c.entityId === p.id).map((c) => c.userId),
        );
        expect([...users].sort()).toEqual([p.senderId, p.receiverId].sort());
      }
    });
  });

  it(
    'running it twice is harmless: nothing is added or duplicated',
    async () => {
      const before = await snapshot();
      const second = await run('demo');
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('0 new people');
      expect(await snapshot()).toEqual(before);
    },
    SCRIPT_TIMEOUT,
  );

  it('a demo person can sign in and sees their friends and the pending request', async () => {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir });
    const running: RunningServer = await startServer(config);
    try {
      const c = new Client(`http://127.0.0.1:${running.port}`);
      const login = await c.post('/api/login', {
        email: 'ada@demo.pingme',
        password: 'pingme-demo',
      });
      expect(login.status).toBe(200);
      const friends = await c.get('/api/friends');
      expect(friends.body.map((f: { firstName: string }) => f.firstName)).toEqual([
        'Alan',
        'Grace',
        'Katherine',
      ]);
      const pending = await c.get('/api/friends/pending');
      expect(pending.body.received.map((r: { firstName: string }) => r.firstName)).toEqual([
        'Margaret',
      ]);
      const grace = friends.body.find((f: { firstName: string }) => f.firstName === 'Grace');
      const stats = await c.get(`/api/friends/${grace.id}/stats`);
      expect(stats.body.totalPings).toBe(3);
      expect(stats.body.totalReactions).toBe(1);
      expect(stats.body.daysConnected).toBe(21);
    } finally {
      await running.close();
    }
  });
});

describe('npm run make-admin', () => {
  const isAdmin = (email: string) =>
    withDb(async ({ db }) => {
      const u = await db
        .selectFrom('users')
        .select(['id', 'isAdmin'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const changes = await db
        .selectFrom('changes')
        .select('seq')
        .where('entity', '=', 'user')
        .where('entityId', '=', u.id)
        .execute();
      return { isAdmin: u.isAdmin, userChanges: changes.length };
    });

  it(
    'grants admin by e-mail (any case), which opens the metrics, and --revoke removes it',
    async () => {
      const before = await isAdmin('grace@demo.pingme');
      expect(before.isAdmin).toBe(0);
      const grant = await run('make-admin', ['Grace@Demo.PingMe']);
      expect(grant.code).toBe(0);
      expect(grant.stdout).toContain('grace@demo.pingme');
      expect(grant.stdout).toContain('is now an admin');
      const granted = await isAdmin('grace@demo.pingme');
      expect(granted.isAdmin).toBe(1);
      expect(granted.userChanges).toBe(before.userChanges + 1);
      expect((await isAdmin('ada@demo.pingme')).isAdmin).toBe(0);

      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir });
      const running = await startServer(config);
      try {
        const c = new Client(`http://127.0.0.1:${running.port}`);
        await c.post('/api/login', { email: 'grace@demo.pingme', password: 'pingme-demo' });
        const metrics = await c.get('/api/admin/metrics');
        expect(metrics.status).toBe(200);
        expect(metrics.body).toMatchObject({ totalUsers: 5, totalFriendships: 5 });
        expect(metrics.body.pendingRequests).toBe(1);

        const again = await run('make-admin', ['grace@demo.pingme']);
        expect(again.code).toBe(0);
        expect(again.stdout).toContain('already an admin');

        const revoke = await run('make-admin', ['grace@demo.pingme', '--revoke']);
        expect(revoke.code).toBe(0);
        expect(revoke.stdout).toContain('Revoked admin');
        expect((await isAdmin('grace@demo.pingme')).isAdmin).toBe(0);
        expect((await c.get('/api/admin/metrics')).status).toBe(403);
      } finally {
        await running.close();
      }
    },
    SCRIPT_TIMEOUT * 2,
  );

  it(
    'an unknown e-mail exits 1 with a clear message and changes nothing',
    async () => {
      const before = await snapshot();
      const res = await run('make-admin', ['nobody@demo.pingme']);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('No account with the e-mail nobody@demo.pingme');
      expect(await snapshot()).toEqual(before);
    },
    SCRIPT_TIMEOUT,
  );

  it(
    'without an e-mail, or with an unknown option, it exits 1 with the usage',
    async () => {
      for (const args of [[], ['--nope', 'ada@demo.pingme'], ['a@b.c', 'd@e.f']]) {
        const res = await run('make-admin', args);
        expect(res.code).toBe(1);
        expect(res.stderr).toContain('Usage: npm run make-admin -- <email> [--revoke]');
      }
    },
    SCRIPT_TIMEOUT * 3,
  );
});
