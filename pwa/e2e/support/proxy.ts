/**
 * A loopback HTTP proxy in front of the sync server that a test can cut, like pulling the network
 * cable (the listener closes, every open connection drops) and restore on the same port; it can
 * also add a round-trip delay (a slow link) and count requests by method and path (how many
 * batches went out). WebSocket upgrades are piped through as raw sockets. Playwright's setOffline
 * does not reach service-worker fetches in Chromium; this does.
 */
import http from 'node:http';
import net from 'node:net';

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
  const sockets = new Set<net.Socket>();
  const requests: string[] = [];
  let delay: [number, number] = [0, 0];
  const wait = () =>
    new Promise((r) => setTimeout(r, delay[0] + Math.random() * (delay[1] - delay[0])));
  const track = (s: net.Socket) => {
    if (sockets.has(s)) return; // a kept-alive upstream socket, reused by the next request
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };

  const server = http.createServer(async (req, res) => {
    requests.push(`${req.method} ${(req.url ?? '/').split('?')[0]}`);
    const chunks: Buffer[] = [];
    try {
      for await (const c of req) chunks.push(c as Buffer);
    } catch {
      return res.destroy(); // the cable was pulled mid-request
    }
    await wait();
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
    requests,
    count: (method, path) => requests.filter((r) => r === `${method} ${path}`).length,
    setDelay: (min, max) => {
      delay = [min, max];
    },
    cut: stop,
    restore: () => listen(port),
    close: stop,
  };
}
