/**
 * Two server processes on one PostgreSQL database; one is killed with SIGKILL in the middle of a
 * stream of sends through both (docs/deploy.md, "What was measured and proven"):
 *   - every send answered 2xx is in the database exactly once, and every send (each retried
 *     with its Idempotency-Key on the node still up, as the app's outbox would) ends as exactly
 *     one ping;
 *   - the killed node's clients reconnect to the other node and catch up by pull: every ping
 *     is in what they pull from the cursor they had;
 *   - the node comes back on the same database and serves again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, RELAXED_LIMITS, freshPostgresDatabase, pullAll } from './harness';
import { dropDatabase } from './postgres';
import { ServerProcess } from './server-process';
import { WsClient } from './ws-client';

let url: string;
let nodes: ServerProcess[] = [];

beforeAll(async () => {
  url = await freshPostgresDatabase();
  nodes = [0, 1].map(
    () =>
      new ServerProcess({ env: { ...RELAXED_LIMITS, DATABASE_URL: url, DATABASE_POOL_SIZE: '6' } }),
  );
  await Promise.all(nodes.map((n) => n.start()));
}, 120_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.dispose()));
  await dropDatabase(url);
});

async function register(
  node: ServerProcess,
  name: string,
): Promise<{ client: Client; id: string }> {
  const client = new Client(node.url);
  const res = await client.post('/api/register', {
    email: `${name}-${Date.now()}@example.test`,
    password: 'correct horse',
    firstName: name,
    lastName: 'Test',
  });
  expect(res.status, res.text).toBe(201);
  return { client, id: res.body.id };
}

describe('a node killed with SIGKILL during a stream of sends through both', () => {
  it('loses and doubles nothing; its clients catch up through the other node', async () => {
    const [n1, n2] = nodes as [ServerProcess, ServerProcess];
    const ann = await register(n1, 'ann');
    const ben = await register(n2, 'ben');
    const req = await ann.client.post('/api/friends/request', { friendId: ben.id });
    expect(
      (await ben.client.post('/api/friends/accept', { requestId: req.body.requestId })).status,
    ).toBe(200);

    // Ben's app is open on node 1, the node about to die.
    const benOn1 = await WsClient.open(ben.client.via(n1.url));
    const start = await pullAll(ben.client.via(n1.url));

    const TOTAL = 40; // under the daily limit of 50 pings from one friend
    const KILL_AT = 14;
    const sends = Array.from({ length: TOTAL }, (_, i) => ({
      key: `kill-${i}-${Date.now()}`,
      text: `stream ${i}`,
      acked: undefined as string | undefined,
      tries: 0,
    }));
    let killed = false;
    const sendOne = async (i: number) => {
      const s = sends[i]!;
      for (;;) {
        // Alternate nodes; once node 1 is gone, the load balancer sends everything to node 2.
        const node = !killed && i % 2 === 0 ? n1 : n2;
        s.tries += 1;
        try {
          const res = await ann.client.via(node.url).post(
            '/api/pings/custom',
            { receiverId: ben.id, customText: s.text },
            {
              headers: { 'idempotency-key': s.key },
            },
          );
          if (res.status === 201) {
            s.acked = res.body.id as string;
            return;
          }
          throw new Error(`answered ${res.status} ${res.text}`);
        } catch (err) {
          if (
            !/fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|other side closed/i.test(
              String(err) + String((err as { cause?: unknown }).cause),
            )
          ) {
            throw err;
          }
          // The connection died with the node: send again, same key.
          if (s.tries > 20) throw err;
        }
      }
    };
    let next = 0;
    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        if (i === KILL_AT) {
          await n1.kill();
          killed = true;
        }
        await sendOne(i);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);

    // Exactly once: one ping per send, each with the id its (first) answer named.
    const rows = await pingsOf(ann.client.via(n2.url), ben.id);
    for (const s of sends) {
      const matching = rows.filter((p) => p.customText === s.text);
      expect(matching, s.text).toHaveLength(1);
      expect(matching[0]!.id).toBe(s.acked);
    }

    // Ben's socket died with node 1; the app reconnects (to node 2 now) and pulls from its cursor.
    await benOn1.until(() => !!benOn1.closed, 10_000, 'the close of the dead node');
    const benOn2 = await WsClient.open(ben.client.via(n2.url));
    const caught = await pullAll(ben.client.via(n2.url), start.cursor);
    const pulled = new Set(caught.changes.filter((c) => c.entity === 'ping').map((c) => c.id));
    for (const s of sends) expect(pulled.has(s.acked!), s.text).toBe(true);

    // Node 1 comes back on the same database; a ping through it reaches Ben on node 2.
    await n1.start();
    const after = await ann.client
      .via(n1.url)
      .post('/api/pings/custom', { receiverId: ben.id, customText: 'back' });
    expect(after.status).toBe(201);
    await benOn2.until((f) => f.some((x) => x.type === 'new_ping'), 15_000, 'new_ping on node 2');
    expect(benOn2.newPingIds()).toContain(after.body.id);
    benOn2.close();
  }, 180_000);
});

/** Every ping between the signed-in person and `other`, through the pull. */
async function pingsOf(client: Client, other: string) {
  const all = await pullAll(client);
  return all.changes
    .filter((c) => c.entity === 'ping')
    .map((c) => c.data as { id: string; customText: string; senderId: string; receiverId: string })
    .filter((p) => p.receiverId === other || p.senderId === other);
}
