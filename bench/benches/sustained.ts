/**
 * 3. Sustained load: a mixed workload (40% sends, 20% reactions, 30% incremental pulls,
 * 10% mark-all-read) first as fast as the server answers (a short probe), then short trials at
 * 70 %, 60 %, 50 % of that until one rate is held, then 60 s at that fixed rate: errors (must
 * be 0) and p99.
 */
import { REACTION_TYPES } from '@pingme/shared';
import type { Child } from '../lib/children';
import { runLoad, type LoadRequest, type LoadResult } from '../lib/load';
import { baseHeaders, makeSender } from '../lib/requests';
import type { World } from '../lib/seed';

export type Kind = 'send' | 'reaction' | 'pull' | 'read';
/** One slot per 5% of the mix. */
const MIX: Kind[] = [
  ...Array<Kind>(8).fill('send'),
  ...Array<Kind>(4).fill('reaction'),
  ...Array<Kind>(6).fill('pull'),
  ...Array<Kind>(2).fill('read'),
];

export interface SustainedResult {
  probe: LoadResult;
  /** The short runs that chose the rate. */
  trials: { share: number; rate: number; rps: number; p99: number; held: boolean }[];
  /** The share of the probed maximum that was run. */
  share: number;
  rate: number;
  run: LoadResult;
  byKind: Record<Kind, { requests: number; non2xx: number }>;
}

/**
 * The mixed load's requests against `url`, and its answers counted by kind. `only` keeps one kind
 * of the mix (bench/side-by-side.ts measures each on its own).
 */
export function makeMixed(
  world: World,
  url: string,
  startCursors: ReadonlyMap<string, number>,
  only?: Kind,
  /** Where this generator's walks over pairs, pings and people begin (a share, 0-1: pairCycle). */
  start = 0,
) {
  const mix = only ? [only] : MIX;
  const users = world.ring.users;
  const byId = new Map(users.map((u) => [u.id, u]));
  const cursors = users.map((u) => startCursors.get(u.id) ?? 0);
  const send = makeSender(world, url, start);
  let n = 0;
  let reactions = Math.floor(start * world.ring.pings.length);
  let pulls = Math.floor(start * users.length);
  let reads = pulls;
  const byKind: SustainedResult['byKind'] = {
    send: { requests: 0, non2xx: 0 },
    reaction: { requests: 0, non2xx: 0 },
    pull: { requests: 0, non2xx: 0 },
    read: { requests: 0, non2xx: 0 },
  };
  const setupRequest = (req: LoadRequest, context: Record<string, unknown>): LoadRequest => {
    const kind = mix[n++ % mix.length]!;
    context.kind = kind;
    switch (kind) {
      case 'send':
        return send(req);
      case 'reaction': {
        // The receiver of an older ping reacts to it (a new reaction replaces their last one).
        const k = reactions++;
        const p = world.ring.pings[k % world.ring.pings.length]!;
        const who = byId.get(p.receiverId)!;
        return {
          ...req,
          method: 'POST',
          path: `/api/pings/${p.id}/reactions`,
          headers: baseHeaders(url, who.cookie, true),
          body: JSON.stringify({ reactionType: REACTION_TYPES[k % REACTION_TYPES.length] }),
        };
      }
      case 'pull': {
        // A device pulls from its last cursor, as a poke would make it.
        const u = pulls++ % users.length;
        context.user = u;
        return {
          ...req,
          method: 'GET',
          path: `/api/sync/pull?since=${cursors[u]}`,
          headers: baseHeaders(url, users[u]!.cookie, false),
          body: undefined,
        };
      }
      case 'read': {
        const u = reads++ % users.length;
        return {
          ...req,
          method: 'PATCH',
          path: '/api/pings/mark-all-read',
          headers: baseHeaders(url, users[u]!.cookie, true),
          body: '{}',
        };
      }
    }
  };
  const onResponse = (status: number, body: string, context: Record<string, unknown>) => {
    const kind = context.kind as Kind;
    byKind[kind].requests += 1;
    if (status < 200 || status > 299) {
      byKind[kind].non2xx += 1;
      if (byKind[kind].non2xx <= 3)
        console.error(`  ${kind}: HTTP ${status} ${body.slice(0, 200)}`);
      return;
    }
    if (kind === 'pull') {
      const cursor = /"cursor":(\d+)/.exec(body)?.[1];
      if (cursor) cursors[context.user as number] = Number(cursor);
    }
  };
  return { setupRequest, onResponse, byKind };
}

export async function benchSustained(opts: {
  server: Child;
  world: World;
  connections: number;
  probeS: number;
  durationS: number;
  /** Shares of the probed maximum to try, highest first; the first one held is run. */
  shares: number[];
  trialS: number;
  /** Each person's change number now: where their devices' cursors start. */
  startCursors: () => Promise<ReadonlyMap<string, number>>;
}): Promise<SustainedResult> {
  const { server, world, connections } = opts;
  const load = async (durationS: number, overallRate?: number) => {
    const mix = makeMixed(world, server.url, await opts.startCursors());
    const result = await runLoad({
      url: server.url,
      connections,
      durationS,
      ...(overallRate ? { overallRate } : {}),
      setupRequest: mix.setupRequest,
      onResponse: mix.onResponse,
    });
    return { result, byKind: mix.byKind };
  };
  // Find the rate: the probe's maximum, then short trials at shares of it until one is held
  // (at least 95 % of it answered, p99 under a second).
  const probe = (await load(opts.probeS)).result;
  const rateAt = (share: number) => Math.max(10, Math.floor((probe.rps * share) / 10) * 10);
  const trials: SustainedResult['trials'] = [];
  let share = opts.shares[opts.shares.length - 1]!;
  for (const s of opts.shares) {
    const rate = rateAt(s);
    const t = (await load(opts.trialS, rate)).result;
    const held = t.rps >= 0.95 * rate && t.p99 < 1000;
    trials.push({ share: s, rate, rps: t.rps, p99: t.p99, held });
    if (held) {
      share = s;
      break;
    }
  }
  const rate = rateAt(share);
  const { result: run, byKind } = await load(opts.durationS, rate);
  return { probe, trials, share, rate, run, byKind };
}
