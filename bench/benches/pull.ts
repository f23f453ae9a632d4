/**
 * 4. Pull: a full snapshot (every page, the page size the PWA uses) for a person with 10,000
 * pings and 50 friends, and an incremental pull after 100 changes: time and bytes.
 */
import type { Ping, PullResponse } from '@pingme/shared';
import { cpuMs, type Child } from '../lib/children';
import { expectStatus, json, request } from '../lib/http';
import type { World } from '../lib/seed';
import { median, summarise, type Summary } from '../lib/stats';

export interface SnapshotRun {
  ms: number;
  /** CPU time the server spent on it (robust on a busy machine, unlike wall time). */
  cpuMs: number;
  bytes: number;
  pages: number;
  changes: number;
  cursor: number;
}

export interface PullResult {
  snapshot: {
    runs: SnapshotRun[];
    medianMs: number;
    medianCpuMs: number;
    bytes: number;
    pages: number;
    changes: number;
  };
  incremental: {
    changesMade: number;
    changes: number;
    bytes: number;
    ms: Summary;
    /** Server CPU per incremental pull, averaged over the runs. */
    cpuMs: number;
  };
}

async function snapshot(server: Child, cookie: string): Promise<SnapshotRun & { pings: Ping[] }> {
  let ms = 0;
  const cpu0 = cpuMs(server.pid);
  let bytes = 0;
  let pages = 0;
  let changes = 0;
  let token: string | null = null;
  const pings: Ping[] = [];
  for (;;) {
    const path: string = token
      ? `/api/sync/pull?snapshot=${encodeURIComponent(token)}`
      : '/api/sync/pull';
    const res = await request(server.url, 'GET', path, { cookie });
    expectStatus(res, [200], 'snapshot page');
    ms += res.ms;
    bytes += res.body.length;
    pages += 1;
    const page = json<PullResponse>(res);
    changes += page.changes.length;
    for (const c of page.changes) if (c.entity === 'ping') pings.push(c.data as Ping);
    if (!page.hasMore) {
      const cpu = cpuMs(server.pid) - cpu0;
      return { ms, cpuMs: cpu, bytes, pages, changes, cursor: page.cursor, pings };
    }
    token = page.snapshot;
  }
}

export async function benchPull(opts: {
  server: Child;
  world: World;
  snapshots: number;
  incrementalRuns: number;
}): Promise<PullResult> {
  const { server, world } = opts;
  const { person, friends } = world.pull;
  const runs: (SnapshotRun & { pings: Ping[] })[] = [];
  for (let i = 0; i < opts.snapshots; i++) runs.push(await snapshot(server, person.cookie));
  const last = runs[runs.length - 1]!;
  const seen = last.pings.filter((p) => p.id).length;
  if (seen < world.pull.pings) {
    throw new Error(`the snapshot held ${seen} pings, expected ${world.pull.pings}`);
  }

  // 100 changes by friends: 70 new pings to the person, 30 reactions to pings the person sent.
  const sentByPerson = last.pings.filter((p) => p.senderId === person.id);
  const byId = new Map(friends.map((f) => [f.id, f]));
  let made = 0;
  for (let i = 0; i < 70; i++) {
    const f = friends[i % friends.length]!;
    const res = await request(server.url, 'POST', '/api/pings', {
      cookie: f.cookie,
      body: { promptId: world.promptId, receiverId: person.id },
    });
    expectStatus(res, [201], 'incremental send');
    made += 1;
  }
  for (let i = 0; i < 30; i++) {
    const p = sentByPerson[sentByPerson.length - 1 - i * 7]!;
    const f = byId.get(p.receiverId)!;
    const res = await request(server.url, 'POST', `/api/pings/${p.id}/reactions`, {
      cookie: f.cookie,
      body: { reactionType: 'wow' },
    });
    expectStatus(res, [201], 'incremental reaction');
    made += 1;
  }

  const times: number[] = [];
  const cpu0 = cpuMs(server.pid);
  let bytes = 0;
  let changes = 0;
  for (let i = 0; i < opts.incrementalRuns; i++) {
    const res = await request(server.url, 'GET', `/api/sync/pull?since=${last.cursor}`, {
      cookie: person.cookie,
    });
    expectStatus(res, [200], 'incremental pull');
    const page = json<PullResponse>(res);
    if (page.reset || page.hasMore) throw new Error('the incremental pull was not one page');
    times.push(res.ms);
    bytes = res.body.length;
    changes = page.changes.length;
  }

  const incrementalCpu = (cpuMs(server.pid) - cpu0) / opts.incrementalRuns;
  const plain = runs.map(({ pings: _pings, ...r }) => r);
  return {
    snapshot: {
      runs: plain,
      medianMs: median(plain.map((r) => r.ms)),
      medianCpuMs: median(plain.map((r) => r.cpuMs)),
      bytes: last.bytes,
      pages: last.pages,
      changes: last.changes,
    },
    incremental: { changesMade: made, changes, bytes, ms: summarise(times), cpuMs: incrementalCpu },
  };
}
