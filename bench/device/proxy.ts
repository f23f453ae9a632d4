/**
 * A loopback HTTP proxy in front of the sync server that the bench can cut like a network cable
 * (the listener closes, every open connection drops) and restore on the same port, as the PWA's
 * browser tests do (pwa/e2e/support/proxy.ts; Playwright's setOffline does not reach the service
 * worker's fetches). It also times every upstream exchange, so the drain's server-side share is
 * known: from the request's first byte sent to the server until its answer's last byte.
 * WebSocket upgrades are piped through as raw sockets.
 */
import http from 'node:http';
import net from 'node:net';

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
  const sockets = new Set<net.Socket>();
  const exchanges: Exchange[] = [];
  const track = (s: net.Socket) => {
    if (sockets.has(s)) return;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    try {
      for await (const c of req) chunks.push(c as Buffer);
    } catch {
      return res.destroy();
    }
    const start = performance.now();
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.on('end', () =>
          exchanges.push({
            method: req.method ?? '',
            path: (req.url ?? '/').split('?')[0]!,
            status: answer.statusCode ?? 0,
            start,
            ms: performance.now() - start,
          }),
        );
        answer.pipe(res);
      },
    );
    upstream.on('socket', track);
    upstream.on('error', () => res.destroy());
    upstream.end(Buffer.concat(chunks));
  });
  server.on('connection', track);
  server.on('upgrade', (req, socket, head) => {
    const upstream = net.connect(targetPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    track(upstream);
    for (const s of [socket, upstream]) {
      s.on('error', () => {
        socket.destroy();
        upstream.destroy();
      });
    }
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });

  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    cut: stop,
    restore: () => listen(port),
    close: stop,
  };
}
