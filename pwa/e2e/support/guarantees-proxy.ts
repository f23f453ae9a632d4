/**
 * A loopback proxy for the guarantee tests (e2e/guarantees.test.ts), like support/proxy.ts but
 * able to misbehave in the ways the guarantees are about, and to say what crossed it:
 *
 * - `cut()` / `restore()`: the cable is pulled (listener closed, every connection dropped) and
 *   put back on the same port;
 * - every POST /api/sync/batch is recorded with its entries' keys, who sent it (the Referer: a
 *   page, or the service worker's script), its answer, and whether the answer reached the browser;
 *   `maxBatchesInFlight` is the most batches of this device the proxy held at once; every
 *   GET /api/sync/pull is recorded with its query and whether it answered a snapshot (`reset`);
 * - `batchDelay(ms)`: each batch waits that long before going on (a slow link widens the window
 *   in which two drainers would overlap);
 * - `batchAnswers('drop' | 'hold')`: the batch reaches the server and is applied there, but its
 *   answer is thrown away (the connection is destroyed) or kept back until the browser gives up;
 *   `batchAnswers('unavailable')`: the proxy answers 503 itself and the server never sees it;
 * - `muteSockets(true)`: /ws frames from the server are swallowed while the socket stays open
 *   (lost realtime messages); `dropSockets()` closes every /ws connection (the device reconnects).
 */
import http from 'node:http';
import net from 'node:net';

export interface BatchExchange {
  /** The entries' Idempotency-Keys, in the order sent. */
  keys: string[];
  /** The Referer header: the page's URL, or the service worker script's. */
  referer: string;
  /** The HTTP status of the batch request itself, once the server answered. */
  status?: number;
  /** The server's per-entry results, once it answered (empty for a refused batch). */
  results?: { idempotencyKey: string; status: number }[];
  /** Whether the answer was written to the browser. */
  delivered: boolean;
}

export type BatchAnswerMode = 'deliver' | 'drop' | 'hold' | 'unavailable';

export interface GuaranteeProxy {
  url: string;
  batches: BatchExchange[];
  /** Every GET /api/sync/pull, once answered. */
  pulls: PullExchange[];
  /** Pulls the proxy is passing on right now, and all it has seen start. */
  readonly pullsInFlight: number;
  readonly pullsStarted: number;
  /** The most batch requests the proxy had in flight at the same moment. */
  readonly maxBatchesInFlight: number;
  batchDelay(ms: number): void;
  batchAnswers(mode: BatchAnswerMode): void;
  muteSockets(muted: boolean): void;
  dropSockets(): void;
  /** /ws connections opened through the proxy since the start. */
  readonly socketsOpened: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

const BATCH = '/api/sync/batch';
const PULL = '/api/sync/pull';

export interface PullExchange {
  /** The query: `since`, `snapshot` or nothing. */
  query: string;
  status: number;
  /** The answer's `reset` (a snapshot page). */
  reset: boolean;
}

export async function startGuaranteeProxy(targetPort: number): Promise<GuaranteeProxy> {
  const sockets = new Set<net.Socket>();
  const wsPairs = new Set<net.Socket>();
  const batches: BatchExchange[] = [];
  const pulls: PullExchange[] = [];
  const notePull = (url: string, answer: http.IncomingMessage) => {
    const parts: Buffer[] = [];
    answer.on('data', (c: Buffer) => parts.push(c));
    answer.on('end', () => {
      let reset = false;
      try {
        reset = (JSON.parse(Buffer.concat(parts).toString()) as { reset?: boolean }).reset === true;
      } catch {
        // an error answer
      }
      pulls.push({ query: url.split('?')[1] ?? '', status: answer.statusCode ?? 0, reset });
    });
  };
  let inFlight = 0;
  let maxInFlight = 0;
  let delayMs = 0;
  let mode: BatchAnswerMode = 'deliver';
  let muted = false;
  let socketsOpened = 0;
  let pullsInFlight = 0;
  let pullsStarted = 0;
  const track = (s: net.Socket) => {
    if (sockets.has(s)) return;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };

  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const isBatch = req.method === 'POST' && path === BATCH;
    if (req.method === 'GET' && path === PULL) {
      pullsStarted++;
      pullsInFlight++;
      res.on('close', () => pullsInFlight--);
    }
    if (isBatch) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on('close', () => inFlight--);
    }
    const chunks: Buffer[] = [];
    try {
      for await (const c of req) chunks.push(c as Buffer);
    } catch {
      return res.destroy();
    }
    const body = Buffer.concat(chunks);
    let exchange: BatchExchange | undefined;
    if (isBatch) {
      let keys: string[] = [];
      try {
        keys = (
          JSON.parse(body.toString()) as { entries: { idempotencyKey: string }[] }
        ).entries.map((e) => e.idempotencyKey);
      } catch {
        // not a batch body; recorded without keys
      }
      exchange = { keys, referer: String(req.headers.referer ?? ''), delivered: false };
      batches.push(exchange);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    }
    const answerMode = isBatch ? mode : 'deliver';
    if (exchange && answerMode === 'unavailable') {
      exchange.status = 503;
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: 'Service Unavailable' }), () => {
        exchange.delivered = true;
      });
      return;
    }
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        if (!exchange) {
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(res);
          if (req.method === 'GET' && path === PULL) notePull(req.url ?? '', answer);
          return;
        }
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(parts);
          exchange.status = answer.statusCode;
          try {
            exchange.results = (
              JSON.parse(text.toString()) as {
                results: { idempotencyKey: string; status: number }[];
              }
            ).results.map((r) => ({ idempotencyKey: r.idempotencyKey, status: r.status }));
          } catch {
            exchange.results = [];
          }
          if (answerMode === 'drop') return res.destroy();
          if (answerMode === 'hold') return; // the browser waits until it gives up or dies
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          res.end(text, () => {
            exchange.delivered = true;
          });
        });
      },
    );
    upstream.on('socket', track);
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  });
  server.on('connection', track);
  server.on('upgrade', (req, socket, head) => {
    const upstream = net.connect(targetPort, '127.0.0.1', () => {
      socketsOpened++;
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream);
      // Frames to the page pass unless muted (whole frames: the server's are small, one chunk).
      upstream.on('data', (chunk: Buffer) => {
        if (!muted) socket.write(chunk);
      });
    });
    track(upstream);
    wsPairs.add(socket as net.Socket);
    socket.on('close', () => wsPairs.delete(socket as net.Socket));
    for (const s of [socket, upstream]) {
      s.on('error', () => {
        socket.destroy();
        upstream.destroy();
      });
      s.on('close', () => {
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
      for (const s of wsPairs) s.destroy();
      sockets.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });

  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    batches,
    pulls,
    get maxBatchesInFlight() {
      return maxInFlight;
    },
    get pullsInFlight() {
      return pullsInFlight;
    },
    get pullsStarted() {
      return pullsStarted;
    },
    get socketsOpened() {
      return socketsOpened;
    },
    batchDelay: (ms) => {
      delayMs = ms;
    },
    batchAnswers: (m) => {
      mode = m;
    },
    muteSockets: (m) => {
      muted = m;
    },
    dropSockets: () => {
      for (const s of wsPairs) s.destroy();
    },
    cut: stop,
    restore: () => listen(port),
    close: stop,
  };
}
