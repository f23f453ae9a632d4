/**
 * Bad input (issue 7): a fuzz run over every route and over /ws frames, against one real server
 * on loopback with a real SQLite file and a small world of people (test/fuzz-world.ts).
 *
 * For every request: no 5xx; every 4xx is the API's error body `{error, code}` (shared ErrorBody);
 * a request refused with a 4xx changed nothing a person could see (the database digest of
 * test/fuzz-http.ts, before and after); a mutating request from another origin is 403. After each
 * route the server still answers GET /api/user. For /ws: each frame gets the answer the contract
 * gives it (an `error`, a `pong`, `authenticated`) or the socket is closed with the proper code,
 * and another person's well-behaved socket stays open and still gets its pong and new_ping.
 *
 * Generation is fast-check, seeded: FUZZ_SEED=<n> reruns with another seed, FUZZ_RUNS=<n> sets
 * the requests per route. A failure is shrunk to a small request and reported with its seed.
 */
import http from 'node:http';
import { ErrorBody } from '@pingme/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DbWatcher, digestDiff, sendRaw, transport, type RawResponse } from './fuzz-http';
import {
  ROUTE_INPUTS,
  batchEntry,
  describeShot,
  shotFor,
  toJsonText,
  type FuzzEntry,
  type Identity,
  type Pools,
  type Shot,
} from './fuzz-gen';
import { FUZZ_ADMIN_EMAIL, FUZZ_PASSWORD, allIds, buildWorld, type FuzzWorld } from './fuzz-world';
import { Recorder, describeFrame, expected, frameArb } from './fuzz-ws';
import { makeFriends, makeUser, startTestServer, type MadeUser, type TestServer } from './harness';
import { listRoutes, routeKey, type RouteInfo } from './routes';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 7_2026;
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const BATCH_RUNS = Math.max(10, Math.round(RUNS * 2));
const WS_RUNS = Math.max(10, Math.round(RUNS * 1.2));

const stats = {
  http: 0,
  routes: new Set<string>(),
  batchEntries: 0,
  wsFrames: 0,
  wsSockets: 0,
  wsHandshakes: 0,
  serverErrors: 0,
  statuses: new Map<number, number>(),
  /** Per route: status -> count (printed with FUZZ_VERBOSE=1). */
  perRoute: new Map<string, Map<number, number>>(),
  startedAt: Date.now(),
};

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * Reads change nothing whatever they answer, except the one read that is an action by design:
 * the e-mail verification link (GET /api/verify-email redeems its token).
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const WRITING_READS = /^\/api\/verify-email/i;
/** Routes after whose success a session may have ended or changed (checked, and signed in again). */
const SESSION_TOUCHING = /logout|login|register|password|account|batch/i;

let server: TestServer;
let world: FuzzWorld;
let watcher: DbWatcher;
let pools: Pools;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const cookies: Record<Identity, string | undefined> = {
  alice: undefined,
  admin: undefined,
  anon: undefined,
  forged: undefined,
};

beforeAll(async () => {
  server = await startTestServer(
    {
      ADMIN_EMAILS: FUZZ_ADMIN_EMAIL,
      // Failed sign-ins count per account; the fuzz fails thousands with the world's e-mails and
      // must still sign its people in again after a fuzzed sign-out.
      LOGIN_FREE_FAILURES: '1000000',
      LOGIN_ACCOUNT_FREE_FAILURES: '1000000',
      // Room for the ws cases' frames on one socket; the bursts still go past it.
      WS_MAX_MESSAGES: '100',
      // The server counts its writing statements (the watcher below) only while it records
      // metrics, which it does only when /metrics can be read.
      METRICS_TOKEN: 'fuzz-metrics-token-0123456789',
    },
    { mailer: { delivers: false, send: async () => undefined } },
  );
  world = await buildWorld(server);
  watcher = new DbWatcher(server.database.db, () => server.metrics.writeStatements);
  // Building the world wrote: a count that had not moved would let every write go unseen.
  if (server.metrics.writeStatements === 0) throw new Error('the server counts no writes');
  pools = {
    ids: allIds(world),
    people: world.ids.people!,
    names: world.names,
    emails: [world.alice.email, world.bob.email, world.dave.email, world.erin.email],
    byKind: world.ids,
  };
  cookies.alice = world.alice.client.cookieHeader;
  cookies.admin = world.erin.client.cookieHeader;
  // Alice's session id with a signature that does not match.
  cookies.forged = cookies.alice.replace(
    /(pingme\.sid\.sig=)[^;]*/,
    '$1AAAAAAAAAAAAAAAAAAAAAAAAAA',
  );
}, 120_000);

afterAll(async () => {
  const seconds = ((Date.now() - stats.startedAt) / 1000).toFixed(1);
  const byStatus = [...stats.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
  console.log(
    `fuzz: ${stats.http.toLocaleString('en')} HTTP requests over ${stats.routes.size} routes ` +
      `(${stats.batchEntries.toLocaleString('en')} more as batch entries), ` +
      `${stats.wsFrames.toLocaleString('en')} ws frames on ${stats.wsSockets} sockets ` +
      `(+${stats.wsHandshakes} refused handshakes), ${stats.serverErrors} server errors; ` +
      `seed ${SEED}, ${RUNS} runs per route, ${seconds} s; statuses ${byStatus.join(' ')}` +
      (transport.retriedOnFreshConnection
        ? `; ${transport.retriedOnFreshConnection} resent after a closed keep-alive connection`
        : ''),
  );
  if (process.env.FUZZ_VERBOSE) {
    for (const r of transport.resends) console.log(`  resent: ${r}`);
    for (const [route, tally] of stats.perRoute) {
      const t = [...tally].sort(([a], [b]) => a - b).map(([st, n]) => `${st}:${n}`);
      console.log(`  ${route}  ${t.join(' ')}`);
    }
  }
  agent.destroy();
  await server?.stop();
});

// ---------- sending and judging one request ----------

function headersFor(shot: Shot): Record<string, string> {
  const h: Record<string, string> = {};
  const cookie = cookies[shot.as];
  if (cookie) h.cookie = cookie;
  if (shot.origin === 'own') h.origin = server.url;
  if (shot.origin === 'foreign') h.origin = 'https://evil.example';
  if (shot.origin === 'null') h.origin = 'null';
  if (shot.origin === 'cross-site-fetch') h['sec-fetch-site'] = 'cross-site';
  if (shot.contentType !== undefined) h['content-type'] = shot.contentType;
  if (shot.contentEncoding !== undefined) h['content-encoding'] = shot.contentEncoding;
  if (shot.idempotencyKey !== undefined) h['idempotency-key'] = shot.idempotencyKey;
  return h;
}

async function fire(shot: Shot): Promise<RawResponse> {
  stats.http += 1;
  const res = await sendRaw(agent, server.port, {
    method: shot.method,
    path: shot.path,
    headers: headersFor(shot),
    body: shot.body,
  });
  stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
  if (res.status >= 500) stats.serverErrors += 1;
  return res;
}

/** What is wrong with an error answer's shape, if anything. */
function errorShapeProblem(status: number, body: unknown, text: string): string | undefined {
  if (status < 400) return undefined;
  if (status >= 500) return `answered ${status}: ${text.slice(0, 300)}`;
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success) return `a ${status} whose body is not {error, code}: ${text.slice(0, 300)}`;
  return undefined;
}

/**
 * Sends one request and checks it; throws with the request and what went wrong, so fast-check
 * shrinks it.
 */
async function judge(shot: Shot): Promise<RawResponse> {
  const before = await watcher.current();
  const writesBefore = watcher.writes();
  const res = await fire(shot);
  const problems: string[] = [];
  const shape = errorShapeProblem(res.status, res.json, res.text);
  if (shape) problems.push(shape);
  const safe = SAFE_METHODS.has(shot.method) && !WRITING_READS.test(shot.path);
  if (((res.status >= 400 && res.status < 500) || safe) && watcher.writes() !== writesBefore) {
    const diff = digestDiff(before, await watcher.current());
    if (diff.length)
      problems.push(
        `${res.status >= 400 ? `refused with ${res.status}` : `a ${shot.method} answered ${res.status}`} but changed ${diff.join(', ')}`,
      );
  }
  if (
    MUTATING.has(shot.method) &&
    ['foreign', 'null', 'cross-site-fetch'].includes(shot.origin) &&
    res.status !== 403
  ) {
    problems.push(`a ${shot.method} from origin '${shot.origin}' answered ${res.status}, not 403`);
  }
  if (problems.length) throw new Error(`${problems.join('; ')}\n  request: ${describeShot(shot)}`);
  if (res.status < 400 && SESSION_TOUCHING.test(shot.path)) await ensureSignedIn();
  return res;
}

/** Signs Alice and Erin in again if a fuzzed request ended their session (a sign-out). */
async function ensureSignedIn() {
  for (const [who, person] of [
    ['alice', world.alice],
    ['admin', world.erin],
  ] as const) {
    const res = await sendRaw(agent, server.port, {
      method: 'GET',
      path: '/api/user',
      headers: { cookie: cookies[who] ?? '' },
    });
    if (res.status === 200 && (res.json as { id?: string }).id === person.id) continue;
    const client = server.client();
    const login = await client.post('/api/login', { email: person.email, password: FUZZ_PASSWORD });
    expect(login.status, login.text).toBe(200);
    cookies[who] = client.cookieHeader;
    if (who === 'alice')
      cookies.forged = client.cookieHeader.replace(
        /(pingme\.sid\.sig=)[^;]*/,
        '$1AAAAAAAAAAAAAAAAAAAAAAAAAA',
      );
  }
}

/** The server is alive and Alice is signed in: GET /api/user answers her. */
async function expectAlive() {
  await ensureSignedIn();
  const res = await sendRaw(agent, server.port, {
    method: 'GET',
    path: '/api/user',
    headers: { cookie: cookies.alice! },
  });
  expect(res.status).toBe(200);
  expect((res.json as { id: string }).id).toBe(world.alice.id);
}

const fcOptions = (offset: number, numRuns: number) => ({
  seed: SEED + offset,
  numRuns,
  // Shrinking re-sends requests; bounded so a failure is reported in reasonable time.
  interruptAfterTimeLimit: 120_000,
  markInterruptAsFailure: false,
});

// ---------- the routes ----------

/** Routes in the order fuzzed: blocking a friend ends the world's friendships, so it goes last. */
const ORDER = Object.keys(ROUTE_INPUTS).sort(
  (a, b) => Number(a === 'POST /api/blocks') - Number(b === 'POST /api/blocks'),
);

describe('fuzz: every route', () => {
  it('covers every route the app has (a new route must get its inputs in fuzz-gen.ts)', () => {
    const routes = listRoutes({
      db: server.database.db,
      config: server.config,
      mailer: server.mailer,
      events: server.events,
    }).map(routeKey);
    expect(routes.length).toBeGreaterThanOrEqual(80);
    expect(routes.filter((r) => !(r in ROUTE_INPUTS))).toEqual([]);
    expect(Object.keys(ROUTE_INPUTS).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it('the database digest ignores a read and sees a write (so the no-change check can fail)', async () => {
    const before = await watcher.current();
    expect(before.has('prompts') && before.has('changes') && !before.has('rate_limits')).toBe(true);
    const read = await fire({
      as: 'alice',
      method: 'GET',
      path: '/api/friends',
      origin: 'own',
      contentType: undefined,
      contentEncoding: undefined,
      idempotencyKey: undefined,
      body: undefined,
      note: 'digest check',
    });
    expect(read.status).toBe(200);
    expect(digestDiff(before, await watcher.current())).toEqual([]);
    const write = await world.alice.client.post('/api/prompts', { text: 'Digest check' });
    expect(write.status).toBe(201);
    const changed = digestDiff(before, await watcher.current()).map((d) => d.split(' ')[0]);
    expect(changed).toEqual(expect.arrayContaining(['prompts', 'changes']));
  });

  ORDER.forEach((key, index) => {
    it(`${key}: no 5xx, 4xx are {error, code} and change nothing`, async () => {
      const [method, path] = key.split(' ') as [RouteInfo['method'], string];
      const route: RouteInfo = { method, path };
      stats.routes.add(key);
      const tally = new Map<number, number>();
      stats.perRoute.set(key, tally);
      await fc.assert(
        fc.asyncProperty(shotFor(route, pools), async (shot) => {
          const res = await judge(shot);
          tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
        }),
        fcOptions(index, RUNS),
      );
      await expectAlive();
    }, 300_000);
  });
});

// ---------- POST /api/sync/batch entries ----------

describe('fuzz: batch entries', () => {
  it('entries aimed at every route: no 5xx inside, 4xx entries are {error, code}, refused batches change nothing', async () => {
    const routes = ORDER.map((k) => {
      const [method, path] = k.split(' ') as [RouteInfo['method'], string];
      return { method, path };
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(batchEntry(routes, pools), { minLength: 1, maxLength: 6 }),
        async (entries) => {
          stats.batchEntries += entries.length;
          const shot: Shot = {
            as: 'alice',
            method: 'POST',
            path: '/api/sync/batch',
            origin: 'own',
            contentType: 'application/json',
            contentEncoding: undefined,
            idempotencyKey: undefined,
            body: Buffer.from(toJsonText({ entries })),
            note: 'batch',
          };
          const before = await watcher.current();
          const res = await judge(shot);
          if (res.status !== 200) return;
          const results = (res.json as { results: { status: number; body: unknown }[] }).results;
          const problems: string[] = [];
          let sawRetryable = false;
          results.forEach((r, i) => {
            const entry = entries[i] as FuzzEntry;
            const shape = errorShapeProblem(r.status, r.body, JSON.stringify(r.body));
            if (shape) problems.push(`entry ${i} (${entry.method} ${entry.path}): ${shape}`);
            if (r.status === 0 && !sawRetryable)
              problems.push(`entry ${i} not attempted for no reason`);
            if (r.status === 429 || r.status === 408) sawRetryable = true;
          });
          if (results.length !== entries.length)
            problems.push(`${results.length} results for ${entries.length} entries`);
          if (results.every((r) => r.status >= 400 || r.status === 0)) {
            const diff = digestDiff(before, await watcher.current());
            if (diff.length) problems.push(`every entry refused but changed ${diff.join(', ')}`);
          }
          if (problems.length)
            throw new Error(
              `${problems.join('; ')}\n  entries: ${toJsonText(entries).slice(0, 2000)}`,
            );
        },
      ),
      fcOptions(1000, BATCH_RUNS),
    );
    await expectAlive();
  }, 300_000);
});

// ---------- /ws ----------

describe('fuzz: /ws frames', () => {
  let fuzzer: MadeUser;
  let watcherPerson: MadeUser;
  let friend: MadeUser;
  let quiet: Recorder;
  const wsUrl = () => `ws://127.0.0.1:${server.port}/ws`;

  beforeAll(async () => {
    fuzzer = await makeUser(server);
    watcherPerson = await makeUser(server);
    friend = await makeUser(server);
    await makeFriends(watcherPerson, friend);
    quiet = await Recorder.open(wsUrl(), {
      cookie: watcherPerson.client.cookieHeader,
      origin: server.url,
    });
  });
  afterAll(() => quiet?.ws.terminate());

  it('handshakes without a session, from another origin or to another path are refused with the error body', async () => {
    const cases = fc.record({
      cookie: fc.constantFrom('none', 'forged', 'garbage', 'good'),
      origin: fc.constantFrom('own', 'foreign', 'null', 'bad-url', 'none'),
      path: fc.constantFrom('/ws', '/ws/', '/WS', '/ws2', '/api/ws', '/ws?x=1'),
    });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        stats.wsHandshakes += 1;
        const headers: Record<string, string> = {};
        const good = fuzzer.client.cookieHeader;
        if (c.cookie === 'good') headers.cookie = good;
        if (c.cookie === 'forged')
          headers.cookie = good.replace(/(pingme\.sid\.sig=)[^;]*/, '$1AAAA');
        if (c.cookie === 'garbage') headers.cookie = 'pingme.sid=%%%; pingme.sid.sig=\u00ff';
        if (c.origin === 'own') headers.origin = server.url;
        if (c.origin === 'foreign') headers.origin = 'https://evil.example';
        if (c.origin === 'null') headers.origin = 'null';
        if (c.origin === 'bad-url') headers.origin = 'not a url';
        const outcome = await new Promise<{ status: number; body: string }>((resolve) => {
          const ws = new WebSocket(`ws://127.0.0.1:${server.port}${c.path}`, { headers });
          ws.once('open', () => {
            ws.terminate();
            resolve({ status: 101, body: '' });
          });
          ws.once('unexpected-response', (_req, res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          ws.once('error', (err) => resolve({ status: -1, body: String(err) }));
        });
        const path = c.path.split('?')[0];
        const allowed = path === '/ws' && c.cookie === 'good' && ['own', 'none'].includes(c.origin);
        if (allowed) {
          expect(outcome.status, JSON.stringify(c)).toBe(101);
          stats.wsSockets += 1;
          return;
        }
        expect(outcome.status, `${JSON.stringify(c)} ${outcome.body}`).toBeGreaterThanOrEqual(400);
        expect(outcome.status).toBeLessThan(500);
        expect(ErrorBody.safeParse(JSON.parse(outcome.body)).success, outcome.body).toBe(true);
      }),
      fcOptions(2000, 40),
    );
  }, 120_000);

  it('random frames get an error reply or a proper close; nothing is written; another socket goes on', async () => {
    const others = [...pools.ids, watcherPerson.id, friend.id];
    const before = await watcher.current();
    await fc.assert(
      fc.asyncProperty(
        fc.array(frameArb(others, fuzzer.id), { minLength: 1, maxLength: 40 }),
        async (frames) => {
          // Frames after the first that closes the socket are never sent.
          const closingAt = frames.findIndex((f) => 'close' in expected(f, fuzzer.id));
          const sent = closingAt >= 0 ? frames.slice(0, closingAt + 1) : frames;
          const rec = await Recorder.open(wsUrl(), {
            cookie: fuzzer.client.cookieHeader,
            origin: server.url,
          });
          stats.wsSockets += 1;
          try {
            for (const f of sent) {
              stats.wsFrames +=
                f.kind === 'burst' ? f.count : f.kind === 'fragments' ? f.parts.length : 1;
              rec.send(f);
            }
            const outcomes = sent.map((f) => expected(f, fuzzer.id));
            const last = outcomes[outcomes.length - 1]!;
            const what = () =>
              `frames: ${sent.map(describeFrame).join(' | ')}\n  got: ${JSON.stringify(rec.messages).slice(0, 600)} closed ${JSON.stringify(rec.closed)}`;
            const replies = outcomes.filter((o) => 'reply' in o) as { reply: string }[];
            if ('close' in last) {
              const closed = await rec.until(() => rec.closed !== undefined);
              if (!closed) throw new Error(`not closed\n  ${what()}`);
              if (rec.closed!.code !== last.close)
                throw new Error(`closed ${rec.closed!.code}, expected ${last.close}\n  ${what()}`);
              // Every frame before the closing one was answered, in order (a burst adds pongs).
              const got = rec.messages.map((m) => m.type).slice(0, replies.length);
              if (JSON.stringify(got) !== JSON.stringify(replies.map((r) => r.reply)))
                throw new Error(`replies ${JSON.stringify(got)}\n  ${what()}`);
              if (rec.messages.slice(replies.length).some((m) => m.type !== 'pong'))
                throw new Error(`unexpected replies after the last frame\n  ${what()}`);
            } else {
              // A final ping: its pong comes after the answers to every frame before it.
              stats.wsFrames += 1;
              rec.ws.send('{"type":"ping"}');
              const done = await rec.until(() => rec.messages.length >= replies.length + 1);
              if (!done) throw new Error(`no answer to every frame\n  ${what()}`);
              const got = rec.messages.map((m) => m.type);
              if (JSON.stringify(got) !== JSON.stringify([...replies.map((r) => r.reply), 'pong']))
                throw new Error(`replies ${JSON.stringify(got)}\n  ${what()}`);
              if (rec.closed) throw new Error(`closed ${rec.closed.code}\n  ${what()}`);
            }
            for (const m of rec.messages) {
              if (m.type === 'error' && typeof m.error !== 'string')
                throw new Error(`error without a message\n  ${what()}`);
            }
            if (rec.nonJson.length)
              throw new Error(`non-JSON frames ${JSON.stringify(rec.nonJson)}\n  ${what()}`);
          } finally {
            rec.ws.terminate();
          }
          if (quiet.closed)
            throw new Error(`the other person's socket closed: ${JSON.stringify(quiet.closed)}`);
        },
      ),
      fcOptions(3000, WS_RUNS),
    );
    expect(digestDiff(before, await watcher.current())).toEqual([]);

    // The well-behaved socket of another person is open, answers, and still gets its pings.
    expect(quiet.closed).toBeUndefined();
    const n = quiet.messages.length;
    quiet.ws.send('{"type":"ping"}');
    expect(await quiet.until(() => quiet.messages.slice(n).some((m) => m.type === 'pong'))).toBe(
      true,
    );
    const prompts = await friend.client.get<{ id: string }[]>('/api/prompts/default');
    const sent = await friend.client.post('/api/pings', {
      promptId: prompts.body[0]!.id,
      receiverId: watcherPerson.id,
    });
    expect(sent.status).toBe(201);
    expect(
      await quiet.until(() =>
        quiet.messages.some(
          (m) => m.type === 'new_ping' && (m.ping as { id: string }).id === sent.body.id,
        ),
      ),
    ).toBe(true);
    await expectAlive();
  }, 300_000);
});

// ---------- what the run found, kept as fixed cases ----------

describe('fuzz: regressions', () => {
  const shot = (over: Partial<Shot>): Shot => ({
    as: 'alice',
    method: 'POST',
    path: '/api/prompts',
    origin: 'own',
    contentType: 'application/json',
    contentEncoding: undefined,
    idempotencyKey: undefined,
    body: undefined,
    note: 'regression',
    ...over,
  });

  it.each([
    ['DELETE', '/api/user'],
    ['PUT', '/api/friends/pending'],
    ['GET', '/api/pings/00000000-0000-4000-8000-000000000000/read'],
    ['PROPFIND', '/api/user'],
    ['PURGE', '/ApI/ExPoRt'],
  ])(
    '%s %s: 405 with the error body and Allow (was text/plain, and 501 for unknown methods)',
    async (method, path) => {
      const res = await judge(shot({ method, path, contentType: undefined }));
      expect(res.status).toBe(405);
      expect(res.json).toMatchObject({ code: 'method_not_allowed' });
      expect(res.headers.allow).toBeTruthy();
    },
  );

  it.each([
    ['POST', '/api/prompts', 'gzip'],
    ['PUT', '/api/privacy-settings', 'br'],
    ['POST', '/api/prompts', 'deflate'],
    ['DELETE', '/api/account', 'gzip'],
    ['DELETE', '/api/push/subscribe', 'br'],
  ])(
    '%s %s with Content-Encoding %s that does not decompress: 400, not 500',
    async (method, path, enc) => {
      const res = await judge(
        shot({ method, path, contentEncoding: enc, body: Buffer.from('{"text":"hi"}') }),
      );
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'malformed_json' });
    },
  );

  it('a large body that does not decompress closes its connection (the next request on it waited 6 s for a reset)', async () => {
    const resends = transport.retriedOnFreshConnection;
    const body = Buffer.from(JSON.stringify({ userId: 'a'.repeat(148_000) }));
    const res = await judge(shot({ path: '/api/blocks', contentEncoding: 'gzip', body }));
    expect(res.status).toBe(400);
    expect(res.headers.connection).toBe('close');
    await expectAlive();
    expect(transport.retriedOnFreshConnection).toBe(resends);
  });

  it('a batch entry body nested 10,000 deep: 400, not 500 (JSON.stringify overflowed)', async () => {
    const entry = `{"idempotencyKey":"deep-entry","method":"POST","path":"/api/prompts","body":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await judge(
      shot({ path: '/api/sync/batch', body: Buffer.from(`{"entries":[${entry}]}`) }),
    );
    expect(res.status).toBe(400);
    expect((res.json as { error: string }).error).toMatch(/nested/);
  });

  it('a body nested 30,000 deep with an Idempotency-Key: 400 before the key is hashed', async () => {
    const res = await judge(
      shot({
        idempotencyKey: 'deep-body',
        body: Buffer.from(`{"text":${'['.repeat(30_000)}${']'.repeat(30_000)}}`),
      }),
    );
    expect(res.status).toBe(400);
  });

  it('a body nested as deep as the API allows still reaches the route', async () => {
    const res = await judge(
      shot({ body: Buffer.from(`{"text":"hi","extra":${'['.repeat(60)}${']'.repeat(60)}}`) }),
    );
    expect(res.status).toBe(400);
    expect((res.json as { error: string }).error).toBe('Unknown field: extra');
  });
});
