/**
 * Guarantee 4 (atomic acknowledgement) and durability, against the real server in its own
 * process (test/server-process.ts) killed with SIGKILL in the middle of a stream of ping sends.
 *
 * The database runs in WAL mode with `synchronous = NORMAL` (src/db/connection.ts, asserted
 * below): a commit is in the WAL (the OS's page cache) before the answer leaves, so a process
 * kill loses no acknowledged write; only an OS crash or power cut could drop the last commits,
 * and even then never split one. What is proven here, several kills in one run:
 *   - every send answered 2xx is in the database after the restart (by id, in the file and
 *     through the API);
 *   - no half-written record: a ping is there with its change-log rows and its idempotency
 *     record, or none of the three is;
 *   - resending each unanswered send with its Idempotency-Key leaves exactly one ping per send
 *     (half the sends carry no client id, so only the key prevents a duplicate);
 *   - `PRAGMA integrity_check` answers 'ok' after every kill.
 * The kill moment is random: DURABILITY_SEED=<n> replays a run's choices (printed below).
 */
import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import type { PullResponse } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection';
import { Client, RELAXED_LIMITS } from './harness';
import { ServerProcess } from './server-process';

const SEED = Number(process.env.DURABILITY_SEED ?? 20261122);
const KILLS = Number(process.env.DURABILITY_KILLS ?? 4);
/** Concurrent senders (each its own HTTP connection while requests overlap). */
const CONNECTIONS = 6;

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Person {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

interface Send {
  key: string;
  sender: Person;
  receiverId: string;
  body: { id?: string; promptId: string; receiverId: string };
  /** The ping's id once an answer named it. */
  pingId?: string;
  outcome: 'waiting' | 'ok' | 'unanswered';
  /** Any answer that was neither 2xx nor a lost connection (there must be none). */
  unexpected?: string;
}

const server = new ServerProcess({ env: RELAXED_LIMITS });
const random = prng(SEED);
const people: Person[] = [];
let promptId = '';

async function call(
  who: Person | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(server.url + path, {
    method,
    headers: {
      ...(who ? { cookie: who.cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

async function register(name: string): Promise<Person> {
  const client = new Client(server.url);
  const email = `${name.toLowerCase()}-${Date.now()}@durability.test`;
  const password = 'correct horse battery';
  const res = await client.post('/api/register', {
    email,
    password,
    firstName: name,
    lastName: 'Durable',
  });
  expect(res.status).toBe(201);
  return { id: res.body.id, email, password, cookie: client.cookieHeader };
}

/** The file as the kill left it (the server is down): read it the way the next start would. */
function inspectFile<T>(fn: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(server.dbFile);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  console.log(`durability: DURABILITY_SEED=${SEED} (kills: ${KILLS})`);
  await server.start();
  for (const name of ['Ada', 'Bea', 'Cy']) people.push(await register(name));
  // Everyone friends with everyone, each with the highest daily limit.
  for (const [i, a] of people.entries()) {
    for (const b of people.slice(i + 1)) {
      const req = await call(a, 'POST', '/api/friends/request', { friendId: b.id });
      expect(req.status).toBeLessThan(300);
      const acc = await call(b, 'POST', '/api/friends/accept', { requestId: req.body.requestId });
      expect(acc.status).toBe(200);
    }
    const limit = await call(a, 'PUT', '/api/profile/update', { rateLimitPerDay: 1000 });
    expect(limit.status).toBe(200);
  }
  const prompts = await call(people[0]!, 'GET', '/api/prompts/default');
  expect(prompts.status).toBe(200);
  promptId = prompts.body[0].id;
}, 120_000);

afterAll(() => server.dispose(), 60_000);

/**
 * One send: its first delivery, or a retry with the same key and body (up to `tries` times while
 * the connection fails, as a device would).
 */
async function deliver(send: Send, tries = 1): Promise<void> {
  for (let i = 1; i < tries; i++) {
    await deliver(send);
    if (send.outcome === 'ok') return;
  }
  try {
    const res = await call(send.sender, 'POST', '/api/pings', send.body, {
      'Idempotency-Key': send.key,
    });
    if (res.status >= 200 && res.status < 300) {
      send.outcome = 'ok';
      if (send.pingId && send.pingId !== res.body.id) {
        send.unexpected = `answered ${res.body.id} after ${send.pingId}`;
      }
      send.pingId = res.body.id;
    } else {
      send.unexpected = `${res.status} ${JSON.stringify(res.body)}`;
    }
  } catch {
    // The connection died with the process: no answer.
    if (send.outcome === 'waiting') send.outcome = 'unanswered';
  }
}

function newSend(): Send {
  const sender = people[Math.floor(random() * people.length)]!;
  const others = people.filter((p) => p !== sender);
  const receiver = others[Math.floor(random() * others.length)]!;
  const key = randomUUID();
  // Half carry a client id; the rest rely on the Idempotency-Key alone.
  const withId = random() < 0.5;
  return {
    key,
    sender,
    receiverId: receiver.id,
    body: { ...(withId ? { id: randomUUID() } : {}), promptId, receiverId: receiver.id },
    outcome: 'waiting',
  };
}

describe('durability: SIGKILL under a stream of ping sends', () => {
  it('keeps every acknowledged send, splits none, and a retry with the same key adds nothing', async () => {
    const all: Send[] = [];
    for (let round = 1; round <= KILLS; round++) {
      // --- Stream sends over several connections; kill after a random number of answers. ---
      const killAfter = 10 + Math.floor(random() * 140);
      const killDelayMs = Math.floor(random() * 15);
      let answered = 0;
      let killing: Promise<void> | undefined;
      const roundSends: Send[] = [];
      const worker = async () => {
        while (!killing || server.running) {
          if (killing && !server.running) break;
          const send = newSend();
          roundSends.push(send);
          await deliver(send);
          if (send.outcome === 'ok') answered++;
          if (send.outcome === 'unanswered') break;
          if (!killing && answered >= killAfter) {
            killing = new Promise<void>((r) => setTimeout(r, killDelayMs)).then(() =>
              server.kill(),
            );
          }
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, worker));
      await killing;
      expect(server.running).toBe(false);
      all.push(...roundSends);
      const ok = roundSends.filter((s) => s.outcome === 'ok');
      const lost = roundSends.filter((s) => s.outcome === 'unanswered');
      console.log(
        `durability round ${round}: ${roundSends.length} sends, ${ok.length} answered 2xx, ` +
          `${lost.length} unanswered at the kill (kill after ${killAfter} answers + ${killDelayMs} ms)`,
      );
      expect(roundSends.filter((s) => s.unexpected).map((s) => s.unexpected)).toEqual([]);
      expect(ok.length).toBeGreaterThanOrEqual(killAfter);

      // --- The file as the kill left it. ---
      const file = inspectFile((db) => ({
        integrity: db.pragma('integrity_check', { simple: true }),
        pings: db.prepare('SELECT id, sender_id, receiver_id FROM pings').all() as {
          id: string;
          sender_id: string;
          receiver_id: string;
        }[],
        changes: db
          .prepare("SELECT user_id, entity_id FROM changes WHERE entity = 'ping'")
          .all() as { user_id: string; entity_id: string }[],
        keys: db.prepare('SELECT caller, key, status, body FROM idempotency_keys').all() as {
          caller: string;
          key: string;
          status: number;
          body: string;
        }[],
      }));
      expect(file.integrity).toBe('ok');
      const pingIds = new Set(file.pings.map((p) => p.id));
      // Every acknowledged send is there.
      expect(all.filter((s) => s.outcome === 'ok' && !pingIds.has(s.pingId!))).toEqual([]);
      // No half-written record: each ping has both change rows and exactly one key record…
      const changeRows = new Set(file.changes.map((c) => `${c.user_id}:${c.entity_id}`));
      const keyOfPing = new Map<string, number>();
      const ourKeys = new Map(all.map((s) => [`${s.sender.id}:${s.key}`, s]));
      for (const k of file.keys) {
        const send = ourKeys.get(`${k.caller}:${k.key}`);
        if (!send) continue;
        expect(k.status).toBe(201);
        const stored = JSON.parse(k.body) as { id: string };
        // …each key record names a ping that exists (and the one its send was answered)…
        expect(pingIds.has(stored.id)).toBe(true);
        if (send.pingId) expect(stored.id).toBe(send.pingId);
        if (send.body.id) expect(stored.id).toBe(send.body.id);
        keyOfPing.set(stored.id, (keyOfPing.get(stored.id) ?? 0) + 1);
      }
      for (const p of file.pings) {
        expect(changeRows.has(`${p.sender_id}:${p.id}`), `change row of ${p.id}`).toBe(true);
        expect(changeRows.has(`${p.receiver_id}:${p.id}`), `change row of ${p.id}`).toBe(true);
        expect(keyOfPing.get(p.id), `key record of ${p.id}`).toBe(1);
      }
      // …and every ping in the file came from one of the sends (nothing else wrote any).
      expect(file.pings).toHaveLength(keyOfPing.size);

      const inFile = new Set(file.keys.map((k) => `${k.caller}:${k.key}`));
      console.log(
        `durability round ${round}: the file holds ${file.pings.length} pings; ` +
          `${lost.filter((s) => inFile.has(`${s.sender.id}:${s.key}`)).length} of the unanswered ` +
          `sends had committed before the kill (their answer was lost)`,
      );

      // --- Restart on the same data; resend what got no answer, with the same keys. ---
      await server.start();
      for (const p of people) {
        const me = await call(p, 'GET', '/api/user');
        expect(me.status, 'the session survives the kill').toBe(200);
      }
      await Promise.all(lost.map((s) => deliver(s, 3)));
      expect(lost.filter((s) => s.outcome !== 'ok' || s.unexpected)).toEqual([]);
      // A replay of an acknowledged send answers the same ping and creates nothing.
      const replay = ok[Math.floor(random() * ok.length)]!;
      const again = await call(replay.sender, 'POST', '/api/pings', replay.body, {
        'Idempotency-Key': replay.key,
      });
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(replay.pingId);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    }

    // --- Exactly once, through the API: each person's snapshot holds every ping they sent. ---
    for (const p of people) {
      const seen = new Set<string>();
      let query = '';
      for (let page = 0; ; page++) {
        const res = await call(p, 'GET', `/api/sync/pull?limit=1000${query}`);
        expect(res.status).toBe(200);
        const body = res.body as PullResponse;
        for (const c of body.changes) if (c.entity === 'ping' && c.data) seen.add(c.id);
        if (!body.hasMore) break;
        query = `&snapshot=${body.snapshot}`;
        expect(page).toBeLessThan(100);
      }
      const mine = all.filter((s) => s.sender === p || s.receiverId === p.id);
      expect(mine.filter((s) => !seen.has(s.pingId!))).toEqual([]);
      // Exactly the pings of these sends: one each, no duplicate of a send without client id.
      expect(seen.size).toBe(new Set(mine.map((s) => s.pingId)).size);
      expect(new Set(mine.map((s) => s.pingId)).size).toBe(mine.length);
    }
    await server.stop();
    const final = inspectFile((db) => ({
      integrity: db.pragma('integrity_check', { simple: true }),
      pings: (db.prepare('SELECT count(*) AS n FROM pings').get() as { n: number }).n,
    }));
    expect(final.integrity).toBe('ok');
    expect(final.pings).toBe(all.length);
    console.log(`durability: ${server.starts} starts, ${all.length} pings, each exactly once`);
  }, 600_000);

  it('runs SQLite in WAL mode with synchronous = NORMAL (what the guarantee relies on)', async () => {
    const opened = await openDatabase(server.dbFile.replace(/pingme\.sqlite$/, 'pragma.sqlite'));
    try {
      expect(opened.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      // 1 = NORMAL (0 OFF, 2 FULL, 3 EXTRA).
      expect(opened.sqlite.pragma('synchronous', { simple: true })).toBe(1);
    } finally {
      await opened.close();
    }
  });
});
