/**
 * A loopback HTTP proxy in front of the sync server that a test can cut, like pulling the network
 * cable (the listener closes, every open connection drops) and restore on the same port; it can
 * also add a round-trip delay (a slow link) and count requests by method and path (how many
 * batches went out). WebSocket upgrades are piped through as raw sockets. Playwright's setOffline
 * does not reach service-worker fetches in Chromium; this does. The forwarding is
 * support/loopback-proxy.ts.
 */
import { startLoopbackProxy } from './loopback-proxy';

export interface LoopbackProxy {
  url: string;
  /** Every request seen, as 'METHOD /path' (no query). */
  requests: string[];
  count(method: string, path: string): number;
  setDelay(minMs: number, maxMs: number): void;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startProxy(targetPort: number): Promise<LoopbackProxy> {
  const requests: string[] = [];
  let delay: [number, number] = [0, 0];
  const wait = () =>
    new Promise((r) => setTimeout(r, delay[0] + Math.random() * (delay[1] - delay[0])));

  const core = await startLoopbackProxy(targetPort, {
    arrived: (req) => {
      requests.push(`${req.method} ${(req.url ?? '/').split('?')[0]}`);
    },
    exchange: async ({ forward }) => {
      await wait();
      forward();
    },
  });
  return {
    ...core,
    requests,
    count: (method, path) => requests.filter((r) => r === `${method} ${path}`).length,
    setDelay: (min, max) => {
      delay = [min, max];
    },
  };
}
