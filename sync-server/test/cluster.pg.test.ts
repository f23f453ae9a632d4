/**
 * Two server nodes on one PostgreSQL database (docs/deploy.md), in this process: each is a whole
 * server (its own pool, bus connection, hub, push notifier) and they share nothing but the
 * database, as two machines behind a load balancer would.
 *
 * - live delivery across nodes: a ping sent through node 1 reaches a /ws socket on node 2 as
 *   `new_ping`, a reaction through node 2 reaches node 1 (a poke, then the pull shows it);
 * - change numbers: 50 parallel writers to one person through both nodes give that person a
 *   gap-free sequence, and a reader polling the log meanwhile never sees a hole that later fills;
 * - idempotency: one key sent to both nodes at once has one effect and one answer;
 * - the LISTEN connection ended by pg_terminate_backend mid-stream: delivery resumes, nothing
 *   missed (the node catches up from the change log when it listens again);
 * - Web Push: each push goes out once, also when the node that took the write died first;
 * - housekeeping runs once between the nodes;
 * - sessions kept in memory: a person or a session changed through node 1 is seen by node 2,
 *   which had them in memory, without waiting for anything but the database's notice.
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PullResponse } from '@pingme/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCacheOf } from '../src/db/session-cache';
import { BUS_APPLICATION, PostgresBus } from '../src/realtime/bus';
import { runHousekeepingOnce } from '../src/services/housekeeping';
import {
  freshPostgresDatabase,
  makeFriends,
  makeUser,
  pullAll,
  startTestServer,
  type MadeUser,
  type TestServer,
} from './harness';
import { within } from './poll';
import { dropDatabase } from './postgres';
import { WsClient } from './ws-client';

let url: string;
let one: TestServer;
let two: TestServer;
const sockets: WsClient[] = [];

beforeAll(async () => {
  url = await freshPostgresDatabase();
  // Push endpoints on loopback (the fake push service below) are plain http.
  const env = { DATABASE_URL: url, PUSH_ALLOW_HTTP_ENDPOINTS: 'true', DATABASE_POOL_SIZE: '8' };
  one = await startTestServer(env);
  two = await startTestServer(env);
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all([one?.stop(), two?.stop()]);
  await dropDatabase(url);
});

async function socket(who: MadeUser, node: TestServer) {
  const ws = await WsClient.open(who.client, node.url);
  sockets.push(ws);
  // The node reads where the person's change log stands just after the socket opens; a change
  // made before that read is the device's to pull, not this socket's news (realtime/relay.ts).
  // On a loaded machine that read can come after the test's next write: wait for it.
  await within(5_000, () => node.relay!.follows(who.id));
  return ws;
}

async function customPing(from: MadeUser, to: MadeUser, node: TestServer, text = 'hi') {
  const res = await from.client
    .via(node.url)
    .post('/api/pings/custom', { receiverId: to.id, customText: text });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

describe('live delivery across nodes', () => {
  it('a ping through node 1 reaches a socket on node 2; a reaction through node 2 reaches node 1', async () => {
    const ann = await makeUser(one);
    const ben = await makeUser(one);
    await makeFriends(ann, ben);
    const annOn1 = await socket(ann, one);
    const benOn2 = await socket(ben, two);

    const ping = await customPing(ann, ben, one, 'across');
    await benOn2.until((f) => f.some((x) => x.type === 'new_ping'), 10_000, 'new_ping on node 2');
    const frame = benOn2.frames.find((f) => f.type === 'new_ping')!;
    expect(frame.ping).toMatchObject({ id: ping.id, customText: 'across', receiverId: ben.id });
    expect(benOn2.frames.some((f) => f.type === 'poke')).toBe(true);

    const pokesBefore = annOn1.frames.filter((f) => f.type === 'poke').length;
    const reacted = await ben.client
      .via(two.url)
      .post(`/api/pings/${ping.id}/reactions`, { reactionType: 'heart' });
    expect(reacted.status, reacted.text).toBe(201);
    await annOn1.until(
      (f) => f.filter((x) => x.type === 'poke').length > pokesBefore,
      10_000,
      'a poke on node 1',
    );
    const pulled = await pullAll(ann.client.via(one.url));
    const seen = pulled.changes.find((c) => c.entity === 'ping' && c.id === ping.id);
    expect(seen?.data).toMatchObject({
      reactions: [expect.objectContaining({ reactionType: 'heart' })],
    });
  });
});

describe('the relay reads what it delivers', () => {
  it('a node holding only the sender’s socket pokes it and reads no ping; the receiver’s node reads the ping once', async () => {
    const ann = await makeUser(one);
    const ben = await makeUser(one);
    await makeFriends(ann, ben);
    const relay = two.relay!;
    const annOn2 = await socket(ann, two);
    const views = relay.stats.pingViews;

    // Ann sends through node 1; node 2 holds only her socket: the log names the ping to her too.
    await customPing(ann, ben, one, 'not yours to read');
    // Then Ben's socket opens on node 2 as well, and a second ping is his news.
    const benOn2 = await socket(ben, two);
    const second = await customPing(ann, ben, one, 'yours');
    await benOn2.until((f) => f.some((x) => x.type === 'new_ping'), 10_000, 'new_ping on node 2');
    // Passes run one after another, in the order the hints came: by the time Ben has his ping,
    // both sends' passes have done their reading, and only Ben's ping was loaded as seen.
    expect(relay.stats.pingViews - views).toBe(1);
    expect(benOn2.newPingIds()).toEqual([second.id]);
    expect(benOn2.frames.find((f) => f.type === 'new_ping')!.ping).toMatchObject({
      customText: 'yours',
      receiverId: ben.id,
    });
    // The sender is told by a poke alone.
    await annOn2.until((f) => f.some((x) => x.type === 'poke'), 10_000, 'a poke for the sender');
    expect(annOn2.newPingIds()).toEqual([]);
  });
});

describe('change numbers per person', () => {
  it('50 parallel writers through both nodes: gap-free, and a polling reader never sees a hole', async () => {
    const rita = await makeUser(one);
    const writers: MadeUser[] = [];
    for (let i = 0; i < 10; i++) {
      const w = await makeUser(i % 2 ? one : two);
      await makeFriends(w, rita);
      writers.push(w);
    }
    const before = await counter(rita.id);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // The reader: Rita's raw change numbers, read again and again while the writes run. Every
    // read must be 1..n without a hole (a hole that a later read fills is what a per-person
    // cursor must never meet).
    let writing = true;
    const holes: string[] = [];
    let reads = 0;
    const reader = (async () => {
      while (writing) {
        const { rows } = await admin.query<{ seq: string }>(
          'select seq from changes where user_id = $1 and seq > $2 order by seq',
          [rita.id, before],
        );
        reads += 1;
        rows.forEach((r, i) => {
          if (Number(r.seq) !== before + i + 1)
            holes.push(`read ${reads}: ${rows.map((x) => x.seq).join(',')}`);
        });
      }
    })();
    // The device's way too: pulls from its cursor through both nodes, collecting the pings.
    const pulledPings = new Set<string>();
    let cursor = (await pullAll(rita.client.via(one.url))).cursor;
    const puller = (async () => {
      let n = 0;
      while (writing) {
        const node = n++ % 2 ? one : two;
        const page = await rita.client
          .via(node.url)
          .get<PullResponse>(`/api/sync/pull?since=${cursor}`);
        for (const c of page.body.changes) if (c.entity === 'ping') pulledPings.add(c.id);
        cursor = page.body.cursor;
      }
    })();

    const sends = writers.flatMap((w, i) =>
      Array.from({ length: 5 }, (_, k) => customPing(w, rita, (i + k) % 2 ? one : two, `n${k}`)),
    );
    const sent = await Promise.all(sends);
    writing = false;
    await Promise.all([reader, puller]);
    await admin.end();

    expect(holes).toEqual([]);
    expect(reads).toBeGreaterThan(1);
    const after = await counter(rita.id);
    expect(after - before).toBe(50);
    const { rows } = await one.database.db
      .selectFrom('changes')
      .select('seq')
      .where('userId', '=', rita.id)
      .where('seq', '>', before)
      .orderBy('seq')
      .execute()
      .then((r) => ({ rows: r.map((x) => Number(x.seq)) }));
    expect(rows).toEqual(Array.from({ length: 50 }, (_, i) => before + i + 1));
    // Whatever the last poll missed, one more pull from its cursor brings: nothing skipped.
    const rest = await pullAll(rita.client.via(two.url), cursor);
    for (const c of rest.changes) if (c.entity === 'ping') pulledPings.add(c.id);
    expect([...pulledPings].sort()).toEqual(sent.map((p) => p.id).sort());
  }, 60_000);
});

async function counter(userId: string): Promise<number> {
  const r = await one.database.db
    .selectFrom('changeCounters')
    .select('seq')
    .where('userId', '=', userId)
    .executeTakeFirst();
  return Number(r?.seq ?? 0);
}

describe('idempotency across nodes', () => {
  it('one key sent to both nodes at once: one effect, the same answer from both', async () => {
    const ann = await makeUser(one);
    const ben = await makeUser(two);
    await makeFriends(ann, ben);
    for (let round = 0; round < 5; round++) {
      const key = randomUUID();
      const body = { receiverId: ben.id, customText: `twice ${round}` };
      const headers = { 'idempotency-key': key };
      const [a, b] = await Promise.all([
        ann.client.via(one.url).post('/api/pings/custom', body, { headers }),
        ann.client.via(two.url).post('/api/pings/custom', body, { headers }),
      ]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body).toEqual(b.body);
      const rows = await one.database.db
        .selectFrom('pings')
        .select('id')
        .where('senderId', '=', ann.id)
        .where('customText', '=', body.customText)
        .execute();
      expect(rows).toHaveLength(1);
    }
  });
});

describe('writers racing on two nodes', () => {
  it('the same check-then-insert from both nodes at once (a reaction, a friend request) answers as on one node, never a 500', async () => {
    const ann = await makeUser(one);
    const ben = await makeUser(two);
    await makeFriends(ann, ben);
    for (let round = 0; round < 5; round++) {
      const ping = await customPing(ann, ben, one, `react ${round}`);
      const answers = await Promise.all(
        [one, two, one, two].map((node, i) =>
          ben.client
            .via(node.url)
            .post(`/api/pings/${ping.id}/reactions`, { reactionType: i % 2 ? 'yes' : 'wow' }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
      const rows = await one.database.db
        .selectFrom('reactions')
        .select('id')
        .where('pingId', '=', ping.id)
        .execute();
      expect(rows).toHaveLength(1);
    }
    // Two friend requests between the same two people at once: one request, the other a 409.
    for (let round = 0; round < 3; round++) {
      const cat = await makeUser(one);
      const dan = await makeUser(two);
      const [x, y] = await Promise.all([
        cat.client.via(one.url).post('/api/friends/request', { friendId: dan.id }),
        dan.client.via(two.url).post('/api/friends/request', { friendId: cat.id }),
      ]);
      expect(
        [x.status, y.status].every((s) => s < 500),
        `${x.text} ${y.text}`,
      ).toBe(true);
      const rows = await one.database.db
        .selectFrom('friendships')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('requesterId', '=', cat.id), eb('addresseeId', '=', dan.id)]),
            eb.and([eb('requesterId', '=', dan.id), eb('addresseeId', '=', cat.id)]),
          ]),
        )
        .execute();
      expect(rows).toHaveLength(1);
    }
  });
});

describe('the bus connection lost mid-stream', () => {
  it('pg_terminate_backend on the LISTEN connections: delivery resumes and nothing is missed', async () => {
    const ann = await makeUser(one);
    const ben = await makeUser(two);
    await makeFriends(ann, ben);
    const benOn2 = await socket(ben, two);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const reconnectsBefore = (two.bus as { reconnects?: number }).reconnects ?? 0;
    const sent: string[] = [];
    for (let i = 0; i < 30; i++) {
      sent.push((await customPing(ann, ben, one, `stream ${i}`)).id);
      if (i === 10) {
        const r = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
          [BUS_APPLICATION],
        );
        expect(r.rowCount).toBeGreaterThanOrEqual(2);
      }
    }
    await admin.end();
    await benOn2.until(
      () => sent.every((id) => benOn2.newPingIds().includes(id)),
      20_000,
      'every new_ping on node 2',
    );
    expect((two.bus as { reconnects?: number }).reconnects).toBeGreaterThan(reconnectsBefore);
    // Each ping once.
    expect(
      benOn2
        .newPingIds()
        .filter((id) => sent.includes(id))
        .sort(),
    ).toEqual([...sent].sort());
  }, 60_000);
});

/** A push service on loopback that answers 201 and records each delivery's path. */
async function pushService() {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.url ?? '');
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { received, base, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function browserKeys() {
  // A P-256 public key and a 16-byte auth secret, as a browser's subscription carries them.
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

describe('Web Push across nodes', () => {
  it('a subscription made on node 2 is pushed to by node 1, once', async () => {
    const service = await pushService();
    try {
      const ann = await makeUser(one);
      const ben = await makeUser(two);
      await makeFriends(ann, ben);
      const sub = await ben.client.via(two.url).post('/api/push/subscribe', {
        endpoint: `${service.base}/ok/${ben.id}`,
        keys: browserKeys(),
      });
      expect(sub.status, sub.text).toBeLessThan(300);
      // Node 1 hears of it over the bus (no minute-long wait for its next read).
      await expect
        .poll(
          async () => {
            await customPing(ann, ben, one, 'pushed?');
            await Promise.all([one.push.idle(), two.push.idle()]);
            return service.received.length;
          },
          { timeout: 10_000, interval: 200 },
        )
        .toBeGreaterThan(0);
      service.received.length = 0;
      await customPing(ann, ben, one, 'once');
      await Promise.all([one.push.idle(), two.push.idle()]);
      await Promise.all([one.push.sweep(Date.now() + 60_000), two.push.sweep(Date.now() + 60_000)]);
      await Promise.all([one.push.idle(), two.push.idle()]);
      expect(service.received).toEqual([`/ok/${ben.id}`]);
    } finally {
      await service.close();
    }
  });

  it('a push whose node died before sending it goes out once, from one of the others', async () => {
    const service = await pushService();
    try {
      const ben = await makeUser(two);
      const sub = await ben.client.via(two.url).post('/api/push/subscribe', {
        endpoint: `${service.base}/orphan/${ben.id}`,
        keys: browserKeys(),
      });
      expect(sub.status, sub.text).toBeLessThan(300);
      // What a node killed right after its commit leaves: an unclaimed job a few seconds old.
      await one.database.db
        .insertInto('pushJobs')
        .values({
          id: randomUUID(),
          receiverId: ben.id,
          job: JSON.stringify({
            receiverId: ben.id,
            payload: { title: 'New Ping from Ann!', body: 'left behind', url: '/', tag: 't' },
            ignoresQuietHours: true,
            urgency: 'normal',
          }),
          createdAt: Date.now() - 10_000,
          claimedUntil: 0,
        })
        .execute();
      const claimed = await Promise.all([one.push.sweep(), two.push.sweep(), one.push.sweep()]);
      await Promise.all([one.push.idle(), two.push.idle()]);
      expect(claimed.reduce((a, b) => a + b, 0)).toBe(1);
      expect(service.received).toEqual([`/orphan/${ben.id}`]);
      const left = await one.database.db.selectFrom('pushJobs').select('id').execute();
      expect(left).toEqual([]);
    } finally {
      await service.close();
    }
  });
});

describe('housekeeping', () => {
  it('runs once between the nodes however many ask at once', async () => {
    const config = { ...one.config, housekeepingEveryMs: 3600_000 };
    const later = Date.now() + 10 * 3600_000;
    const runs = await Promise.all([
      runHousekeepingOnce(one.database.db, config, later),
      runHousekeepingOnce(two.database.db, config, later),
      runHousekeepingOnce(one.database.db, config, later + 1),
      runHousekeepingOnce(two.database.db, config, later + 2),
    ]);
    expect(runs.filter((r) => r !== undefined)).toHaveLength(1);
    // A period later, it runs again (once).
    const next = await Promise.all([
      runHousekeepingOnce(one.database.db, config, later + 3600_000),
      runHousekeepingOnce(two.database.db, config, later + 3600_000),
    ]);
    expect(next.filter((r) => r !== undefined)).toHaveLength(1);
  });
});

describe('sessions kept in memory, across nodes', () => {
  it('a person changed and a session ended through node 1 are seen by node 2, which had them in memory', async () => {
    const a = await makeUser(one);
    const onTwo = a.client.via(two.url);
    expect((await onTwo.get('/api/user')).status).toBe(200);
    // Node 2 answers from memory (once the notices of its own first touches have come back).
    const cache = sessionCacheOf(two.database.db)!;
    const hits = cache.stats.hits;
    await within(2_000, async () => {
      expect((await onTwo.get('/api/user')).status).toBe(200);
      return cache.stats.hits > hits;
    });

    const changed = await a.client.via(one.url).put('/api/profile/update', { bio: 'from one' });
    expect(changed.status, changed.text).toBe(200);
    await within(2_000, async () => (await onTwo.get('/api/user')).body.bio === 'from one');

    // Signed out through node 1: the cookie, copied before, no longer works on node 2.
    const stolen = a.client.cookieHeader;
    const replay = () =>
      fetch(`${two.url}/api/user`, { headers: { cookie: stolen } }).then((r) => r.status);
    expect(await replay()).toBe(200);
    expect((await a.client.via(one.url).post('/api/logout')).status).toBe(200);
    await within(2_000, async () => (await replay()) === 401);
  });

  it('tells the operator when they cannot be used: node 2’s bus connection ended', async () => {
    const inUse = async () => {
      const text = await two.metrics.registry.getSingleMetricAsString(
        'pingme_session_cache_in_use',
      );
      return Number(/^pingme_session_cache_in_use (\d+)$/m.exec(text)?.[1]);
    };
    expect(await inUse()).toBe(1);
    const bus = two.bus as PostgresBus;
    const pid = bus.backendPid;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    await within(2_000, async () => (await inUse()) === 0);
    await within(5_000, async () => (await inUse()) === 1);
    expect(bus.backendPid).not.toBe(pid);
  });
});
