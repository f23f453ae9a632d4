/** Authenticated /ws clients, opened in bounded parallel batches. */
import { WebSocket } from 'ws';

export async function openSocket(base: string, cookie: string): Promise<WebSocket> {
  const ws = new WebSocket(base.replace(/^http/, 'ws') + '/ws', { headers: { cookie } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`/ws refused: HTTP ${res.statusCode}`)),
    );
    ws.once('error', reject);
  });
  ws.on('error', () => undefined);
  return ws;
}

export async function openSockets(
  base: string,
  cookies: string[],
  parallel = 100,
): Promise<WebSocket[]> {
  const out: WebSocket[] = [];
  for (let i = 0; i < cookies.length; i += parallel) {
    out.push(
      ...(await Promise.all(cookies.slice(i, i + parallel).map((c) => openSocket(base, c)))),
    );
  }
  return out;
}

export async function closeSockets(sockets: WebSocket[]): Promise<void> {
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          ws.once('close', () => resolve());
          ws.close();
          setTimeout(() => {
            ws.terminate();
            resolve();
          }, 2000).unref();
        }),
    ),
  );
}

/**
 * Arrival times of `new_ping` frames on one socket: `next(id)` answers when the ping with that id
 * arrives (performance.now() when its frame was read), or fails after 10 s.
 */
export function newPingArrivals(rx: WebSocket): { next(id: string): Promise<number> } {
  const waiting = new Map<string, (t: number) => void>();
  rx.on('message', (data: Buffer) => {
    const t = performance.now();
    const text = data.toString('utf8');
    if (!text.startsWith('{"type":"new_ping"')) return;
    const id = (JSON.parse(text) as { ping: { id: string } }).ping.id;
    waiting.get(id)?.(t);
  });
  return {
    next: (id) =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`new_ping ${id} never arrived`)), 10_000);
        waiting.set(id, (t) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(t);
        });
      }),
  };
}
