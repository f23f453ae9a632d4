/**
 * A loopback HTTP proxy in front of the sync server that the bench can cut like a network cable
 * (the listener closes, every open connection drops) and restore on the same port, as the PWA's
 * browser tests do (the same forwarding core: pwa/e2e/support/loopback-proxy.ts; Playwright's
 * setOffline does not reach the service worker's fetches). It also times every upstream exchange,
 * so the drain's server-side share is known: from the request's first byte sent to the server
 * until its answer's last byte. `setDelay(ms)` makes it a slow link: each HTTP request waits `ms`
 * before it goes on to the server and its answer `ms` before it goes back (a round trip of 2 ×
 * ms), as the poor-connection figure needs. WebSocket upgrades are piped through as raw sockets,
 * undelayed.
 */
import { startLoopbackProxy } from '../../pwa/e2e/support/loopback-proxy';

export interface Exchange {
  method: string;
  path: string;
  status: number;
  /** performance.now() of this process when the proxy sent the request upstream. */
  start: number;
  /** Upstream time: request sent until the answer's last byte. */
  ms: number;
}

export interface TimingProxy {
  url: string;
  exchanges: Exchange[];
  /** Each HTTP request and each answer wait this long (0: none). */
  setDelay(ms: number): void;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTimingProxy(targetPort: number): Promise<TimingProxy> {
  const exchanges: Exchange[] = [];
  let delayMs = 0;
  const wait = (ms: number) => (ms ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
  const core = await startLoopbackProxy(targetPort, {
    exchange: async ({ req, res, forward }) => {
      const delay = delayMs;
      await wait(delay);
      const start = performance.now();
      forward((answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          exchanges.push({
            method: req.method ?? '',
            path: (req.url ?? '/').split('?')[0]!,
            status: answer.statusCode ?? 0,
            start,
            ms: performance.now() - start,
          });
          void wait(delay).then(() => {
            res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
            res.end(Buffer.concat(parts));
          });
        });
      });
    },
  });
  return {
    ...core,
    exchanges,
    setDelay: (ms) => {
      delayMs = ms;
    },
  };
}
