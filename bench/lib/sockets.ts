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
