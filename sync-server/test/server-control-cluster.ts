/**
 * Vitest globalSetup of the sync-fault-pg project: the PWA's fault tests (the property-based
 * convergence test) against two server processes on one PostgreSQL database, behind a small
 * balancer on loopback, through the same control API as one server (server-control.ts):
 *
 * - the balancer sends each request to the next node that is up, in turn, so a device's
 *   consecutive requests (and the two copies of a duplicated one) reach different nodes;
 * - POST /kill sends SIGKILL to one node (the one that has run longest); the requests in flight
 *   on it fail as on a dead machine, the rest go to the other; a second kill takes both down;
 * - POST /start starts every node that is down, on the same database.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { RELAXED_LIMITS } from './harness';
import { createDatabase, testPostgres } from './postgres';
import { serveControl, type Servers } from './server-control';
import { ServerProcess } from './server-process';

export default async function setup(project: TestProject) {
  const postgres = await testPostgres();
  const { adminUrl } = postgres;
  const url = await createDatabase(adminUrl);
  const env = { ...RELAXED_LIMITS, DATABASE_URL: url, DATABASE_POOL_SIZE: '6' };
  const nodes = [new ServerProcess({ env }), new ServerProcess({ env })];
  // Start them one after the other: the first runs the migrations.
  for (const n of nodes) await n.start();
  const balancer = await startBalancer(nodes);
  const killOrder: ServerProcess[] = [...nodes];
  let starts = 0;

  const servers: Servers = {
    async start() {
      const down = nodes.filter((n) => !n.running);
      for (const n of down) {
        await n.start();
        killOrder.push(n);
      }
      if (down.length) starts += 1;
    },
    async kill() {
      const victim = killOrder.find((n) => n.running);
      if (!victim) return;
      killOrder.splice(killOrder.indexOf(victim), 1);
      await victim.kill();
    },
    status: () => ({ running: nodes.some((n) => n.running), url: balancer.url, starts }),
    async keys(callers) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const r = await client.query(
          'SELECT caller, key, status FROM idempotency_keys WHERE caller = ANY($1)',
          [callers],
        );
        return r.rows.map((row: { caller: string; key: string; status: string }) => ({
          ...row,
          status: Number(row.status),
        }));
      } finally {
        await client.end();
      }
    },
    async dispose() {
      await balancer.close();
      await Promise.all(nodes.map((n) => n.dispose()));
      await postgres.stop();
    },
  };
  return serveControl(project, servers);
}

/** Round robin over the nodes that are up; a request to a node that dies fails with it. */
async function startBalancer(nodes: ServerProcess[]) {
  let turn = 0;
  const agent = new http.Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const up = nodes.filter((n) => n.running);
    if (up.length === 0) {
      res.socket?.destroy();
      return;
    }
    const node = up[turn++ % up.length]!;
    const forward = http.request(
      {
        host: '127.0.0.1',
        port: node.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('error', () => res.socket?.destroy());
      },
    );
    // The node died with the request: the device's connection dies too, as it would.
    forward.on('error', () => res.socket?.destroy());
    req.pipe(forward);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
