/**
 * A loopback HTTP proxy in front of the sync server that the bench can cut like a network cable
 * (the listener closes, every open connection drops) and restore on the same port, as the PWA's
 * browser tests do (the same forwarding core: pwa/e2e/support/loopback-proxy.ts; Playwright's
 * setOffline does not reach the service worker's fetches). It also times every upstream exchange,
 * so the drain's server-side share is known: from the request's first byte sent to the server
 * until its answer's last byte. WebSocket upgrades are piped through as raw sockets.
 */
import { passAnswer, startLoopbackProxy } from '../../pwa/e2e/support/loopback-proxy';

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
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTimingProxy(targetPort: number): Promise<TimingProxy> {
  const exchanges: Exchange[] = [];
  const core = await startLoopbackProxy(targetPort, {
    exchange: ({ req, res, forward }) => {
      const start = performance.now();
      forward((answer) => {
        answer.on('end', () =>
          exchanges.push({
            method: req.method ?? '',
            path: (req.url ?? '/').split('?')[0]!,
            status: answer.statusCode ?? 0,
            start,
            ms: performance.now() - start,
          }),
        );
        passAnswer(answer, res);
      });
    },
  });
  return { ...core, exchanges };
}
