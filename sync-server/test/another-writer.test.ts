/**
 * The SQLite file has other writers besides the server: `npm run make-admin` and the operator's
 * own `sqlite3` while the server runs, a second process started on the same DATA_DIR by mistake.
 * SQLite lets one write at a time and makes the others wait (busy_timeout), but only a
 * transaction that asks for the write lock when it begins waits. One that began by reading and
 * then wants to write after another process committed cannot go on, whatever the timeout: it got
 * SQLITE_BUSY at once, and the person's send got a 500 (seen in the bench, while a second server
 * shared the file). The server's transactions begin IMMEDIATE (db/connection.ts), so they queue
 * for the lock instead.
 *
 * Here a thread commits small writes to the server's file in a tight loop while people send
 * pings through the real server in its own process: every send is answered 201 and is there. And
 * a lock held past the server's wait is a busy server, not a broken one: 503 with Retry-After.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, RELAXED_LIMITS } from './harness';
import { ServerProcess } from './server-process';

const SENDS = 300;
const CONNECTIONS = 8;

/** Another writer: commits one small row after another until told to stop (CommonJS, eval). */
const OTHER_WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const write = db.prepare("insert or replace into rate_limits (bucket, count, reset_at) values ('another-writer', ?, 0)");
const pause = new Int32Array(new SharedArrayBuffer(4));
let stop = false;
let commits = 0;
parentPort.on('message', () => { stop = true; });
function burst() {
  for (let i = 0; i < 20 && !stop; i++) {
    db.transaction(() => write.run(commits))();
    commits++;
    Atomics.wait(pause, 0, 0, 1);
  }
  if (stop) {
    db.close();
    parentPort.postMessage(commits);
  } else setImmediate(burst);
}
burst();
`;

/** Another writer that holds the write lock for `holdMs`, longer than the server waits. */
const LOCK_HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.prepare('begin immediate').run();
db.prepare("insert or replace into rate_limits (bucket, count, reset_at) values ('lock-holder', 1, 0)").run();
parentPort.postMessage('locked');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
db.prepare('commit').run();
db.close();
parentPort.postMessage('released');
`;

const server = new ServerProcess({ env: RELAXED_LIMITS });
let ada: Client;
let bea: Client;
let adaId = '';
let beaId = '';
let promptId = '';

beforeAll(async () => {
  await server.start();
  const people: { client: Client; id: string }[] = [];
  for (const name of ['Ada', 'Bea']) {
    const client = new Client(server.url);
    const res = await client.post('/api/register', {
      email: `${name.toLowerCase()}-${Date.now()}@another-writer.test`,
      password: 'correct horse battery',
      firstName: name,
      lastName: 'Writer',
    });
    expect(res.status).toBe(201);
    expect((await client.put('/api/profile/update', { rateLimitPerDay: 1000 })).status).toBe(200);
    people.push({ client, id: res.body.id });
  }
  [ada, bea] = [people[0]!.client, people[1]!.client];
  [adaId, beaId] = [people[0]!.id, people[1]!.id];
  const req = await ada.post('/api/friends/request', { friendId: beaId });
  expect(req.status).toBeLessThan(300);
  expect((await bea.post('/api/friends/accept', { requestId: req.body.requestId })).status).toBe(
    200,
  );
  const prompts = await ada.get('/api/prompts/default');
  promptId = prompts.body[0].id;
}, 60_000);

afterAll(() => server.dispose(), 60_000);

describe('another process writing to the SQLite file', () => {
  it('makes the server wait for the lock: every send is answered 201, none 500', async () => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(OTHER_WRITER, {
      eval: true,
      workerData: { file: server.dbFile, driver },
    });
    const otherCommits = new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });

    const statuses: number[] = [];
    const errors: string[] = [];
    let next = 0;
    const sender = async () => {
      while (next < SENDS) {
        next++;
        const res = await ada.post('/api/pings', { promptId, receiverId: beaId });
        statuses.push(res.status);
        if (res.status !== 201) errors.push(`${res.status} ${JSON.stringify(res.body)}`);
      }
    };
    try {
      await Promise.all(Array.from({ length: CONNECTIONS }, sender));
    } finally {
      worker.postMessage('stop');
    }
    const commits = await otherCommits;

    // The other writer really wrote meanwhile: not a quiet file.
    expect(commits).toBeGreaterThan(50);
    expect(errors).toEqual([]);
    expect(statuses).toHaveLength(SENDS);
    const file = new BetterSqlite3(server.dbFile, { readonly: true });
    try {
      const { n } = file
        .prepare('select count(*) as n from pings where sender_id = ? and receiver_id = ?')
        .get(adaId, beaId) as { n: number };
      expect(n).toBe(SENDS);
    } finally {
      file.close();
    }
  }, 120_000);

  it('answers 503 with Retry-After when the lock stays taken past busy_timeout; the same send again then counts once', async () => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    // The server waits 5 s (busy_timeout) for the lock; this writer keeps it for 7.
    const holder = new Worker(LOCK_HOLDER, {
      eval: true,
      workerData: { file: server.dbFile, driver, holdMs: 7000 },
    });
    const released = new Promise<void>((resolve, reject) => {
      holder.on('message', (m) => m === 'released' && resolve());
      holder.once('error', reject);
    });
    await new Promise<void>((resolve) => holder.once('message', () => resolve()));

    const key = crypto.randomUUID();
    const send = () =>
      ada.post(
        '/api/pings',
        { promptId, receiverId: beaId },
        { headers: { 'Idempotency-Key': key } },
      );
    const busy = await send();
    expect(busy.status).toBe(503);
    expect(busy.body.code).toBe('server_busy');
    expect(busy.headers.get('retry-after')).toBe('1');

    await released;
    const sent = await send();
    expect(sent.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(sent.body.id);
    expect(server.log).not.toMatch(/"msg":"unhandled error"/);
    // The operator sees why: a warning, not an error.
    expect(server.log).toMatch(/"level":"warn"[^\n]*"msg":"busy: answered 503"/);
  }, 60_000);
});
