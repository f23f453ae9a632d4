/**
 * 2. Delivery latency: from the moment the sender's request starts to `new_ping` on the
 * receiver's socket, one ping at a time, with 1,000 and then 5,000 other authenticated sockets
 * open; the server's RSS (its own process, /proc/<pid>/status) with them open.
 */
import type { WebSocket } from 'ws';
import { uuidv7 } from '@pingme/shared';
import { rssMb, type Child } from '../lib/children';
import { expectStatus, request } from '../lib/http';
import type { World } from '../lib/seed';
import { closeSockets, newPingArrivals, openSocket, openSockets } from '../lib/sockets';
import { sleep, summarise, type Summary } from '../lib/stats';

export interface DeliveryLevel {
  otherSockets: number;
  delivery: Summary;
  /** The send's own HTTP answer time, for comparison. */
  http: Summary;
  rssMb: number;
  openSeconds: number;
  /** Deliveries over 50 ms: seconds into the level's run, and how long (to spot periodic stalls). */
  slow: { atS: number; ms: number }[];
}

export interface DeliveryResult {
  idleRssMb: number;
  levels: DeliveryLevel[];
}

export async function benchDelivery(opts: {
  server: Child;
  world: World;
  levels: number[];
  pings: number;
  /** Pause between pings: 500 pings at 60 ms span one ws heartbeat (30 s), as real life would. */
  intervalMs: number;
}): Promise<DeliveryResult> {
  const { server, world } = opts;
  const { receiver, senders, otherSockets } = world.delivery;
  const rx = await openSocket(server.url, receiver.cookie);
  const arrivals = newPingArrivals(rx);

  let sent = 0;
  async function one(): Promise<{ delivery: number; http: number }> {
    const id = uuidv7();
    const sender = senders[sent++ % senders.length]!;
    const arrived = arrivals.next(id);
    const t0 = performance.now();
    const res = await request(server.url, 'POST', '/api/pings', {
      cookie: sender.cookie,
      body: { id, promptId: world.promptId, receiverId: receiver.id },
    });
    expectStatus(res, [201], 'delivery send');
    return { delivery: (await arrived) - t0, http: res.ms };
  }

  const idleRssMb = rssMb(server.pid);
  const open: WebSocket[] = [];
  const levels: DeliveryLevel[] = [];
  for (const level of opts.levels) {
    const t = performance.now();
    const more = otherSockets.slice(open.length, level).map((u) => u.cookie);
    if (open.length + more.length < level) {
      throw new Error(`only ${otherSockets.length} other sessions were seeded`);
    }
    open.push(...(await openSockets(server.url, more)));
    const openSeconds = (performance.now() - t) / 1000;
    await sleep(1000);
    for (let i = 0; i < 20; i++) await one(); // warm-up, not counted
    const delivery: number[] = [];
    const http: number[] = [];
    const slow: DeliveryLevel['slow'] = [];
    const start = performance.now();
    for (let i = 0; i < opts.pings; i++) {
      const at = (performance.now() - start) / 1000;
      const r = await one();
      delivery.push(r.delivery);
      http.push(r.http);
      if (r.delivery > 50) slow.push({ atS: Math.round(at * 10) / 10, ms: Math.round(r.delivery) });
      await sleep(opts.intervalMs);
    }
    levels.push({
      otherSockets: open.length,
      delivery: summarise(delivery),
      http: summarise(http),
      rssMb: rssMb(server.pid),
      openSeconds,
      slow,
    });
  }
  await closeSockets([rx, ...open]);
  return { idleRssMb, levels };
}
