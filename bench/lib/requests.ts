/** The requests the load runs send, built from the seeded world. */
import { randomUUID } from 'node:crypto';
import type { LoadRequest } from './load';
import type { World } from './seed';

export function baseHeaders(url: string, cookie: string, json: boolean): Record<string, string> {
  const h: Record<string, string> = {
    cookie,
    origin: new URL(url).origin,
    accept: 'application/json',
  };
  if (json) h['content-type'] = 'application/json';
  return h;
}

/**
 * Round-robin over the ring's directed friend pairs: each stays under its daily limit. `start`
 * (a share of the ring, 0-1): where the walk begins, so that load generators of several nodes do
 * not send from the same person at the same moment.
 */
function pairCycle(world: World, start = 0) {
  const { users, pairs } = world.ring;
  let n = Math.floor(start * pairs.length);
  return () => {
    const [s, r] = pairs[n++ % pairs.length]!;
    return { sender: users[s]!, receiver: users[r]! };
  };
}

/**
 * A ping send as the app's outbox makes it over REST: POST /api/pings with an Idempotency-Key,
 * from the next directed pair of the ring, so every request is a real 201. No ping id: the
 * server makes one.
 */
export function makeSender(world: World, url: string, start = 0) {
  const next = pairCycle(world, start);
  return (req: LoadRequest): LoadRequest => {
    const { sender, receiver } = next();
    return {
      ...req,
      method: 'POST',
      path: '/api/pings',
      headers: { ...baseHeaders(url, sender.cookie, true), 'idempotency-key': randomUUID() },
      body: JSON.stringify({ promptId: world.promptId, receiverId: receiver.id }),
    };
  };
}

/**
 * The same send as the PWA's outbox worker sends it: POST /api/sync/batch with `entries` named
 * `ping.send` entries of one person to one friend (a device that caught up after being offline).
 */
export function makeBatchSender(world: World, url: string, entries = 1) {
  const next = pairCycle(world);
  return (req: LoadRequest): LoadRequest => {
    const { sender, receiver } = next();
    const list = Array.from({ length: entries }, () => ({
      idempotencyKey: randomUUID(),
      name: 'ping.send',
      args: { promptId: world.promptId, receiverId: receiver.id },
    }));
    return {
      ...req,
      method: 'POST',
      path: '/api/sync/batch',
      headers: baseHeaders(url, sender.cookie, true),
      body: JSON.stringify({ entries: list }),
    };
  };
}
