/**
 * Vitest globalSetup for tests that run outside Node's types (the PWA's fault tests, which load
 * the real sync code over fake-indexeddb) but must kill the real server: one ServerProcess
 * (test/server-process.ts) for the whole run, driven over a small loopback HTTP API whose URL
 * the tests read with `inject('syncServerControl')`:
 *
 *   POST /start  → {url}   start (or restart) on the same DATA_DIR; a no-op when running
 *   POST /kill   → {}      SIGKILL; a no-op when down
 *   GET  /status → {running, url, starts}
 *   GET  /keys?caller=<id>[,<id>…] → [{caller, key, status}]  idempotency records, read from
 *        the SQLite file (WAL: a reader beside the running server)
 *
 * The same API drives two nodes on PostgreSQL (server-control-cluster.ts, the sync-fault-pg
 * project): see `Servers` below.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import type { TestProject } from 'vitest/node';
import { RELAXED_LIMITS } from './harness';
import { ServerProcess } from './server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    syncServerControl: string;
  }
}

/** What the control API drives: one server process, or two nodes behind a balancer. */
export interface Servers {
  start(): Promise<void>;
  kill(): Promise<void>;
  status(): { running: boolean; url: string; starts: number };
  keys(callers: string[]): Promise<unknown[]>;
  dispose(): Promise<void>;
}

/** One server process on a SQLite file. */
function singleServer(): Servers {
  const server = new ServerProcess({ env: RELAXED_LIMITS });
  return {
    async start() {
      if (!server.running) await server.start();
    },
    kill: () => server.kill(),
    status: () => ({ running: server.running, url: server.url, starts: server.starts }),
    async keys(callers) {
      const db = new BetterSqlite3(server.dbFile, { readonly: true, fileMustExist: true });
      try {
        return db
          .prepare(
            `SELECT caller, key, status FROM idempotency_keys WHERE caller IN (${callers
              .map(() => '?')
              .join(',')})`,
          )
          .all(...callers);
      } finally {
        db.close();
      }
    },
    dispose: () => server.dispose(),
  };
}

export default function setup(project: TestProject) {
  return serveControl(project, singleServer());
}

export async function serveControl(project: TestProject, server: Servers) {
  // One action at a time: a kill never races a start.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  const status = () => server.status();

  const control = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://control');
    const answer = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const act = async (): Promise<unknown> => {
      if (req.method === 'POST' && url.pathname === '/start') {
        return serial(async () => {
          await server.start();
          return status();
        });
      }
      if (req.method === 'POST' && url.pathname === '/kill') {
        return serial(async () => {
          await server.kill();
          return status();
        });
      }
      if (req.method === 'GET' && url.pathname === '/status') return status();
      if (req.method === 'GET' && url.pathname === '/keys') {
        const callers = (url.searchParams.get('caller') ?? '').split(',').filter(Boolean);
        return server.keys(callers);
      }
      throw Object.assign(new Error(`no route ${req.method} ${url.pathname}`), { code: 404 });
    };
    req.resume();
    req.on('end', () => {
      act().then(
        (body) => answer(200, body),
        (err: unknown) =>
          answer((err as { code?: number }).code === 404 ? 404 : 500, { error: String(err) }),
      );
    });
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  project.provide(
    'syncServerControl',
    `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
  );

  return async () => {
    await new Promise<void>((resolve) => control.close(() => resolve()));
    await server.dispose();
  };
}
