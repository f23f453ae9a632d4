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
 *   in which two drainers would overlap); `batchGate(count, maxMs)`: each batch waits until
 *   `count` batches are in flight at once, or `maxMs` passed (two drainers, if there are two,
 *   surely overlap, however slowly either tab gets to its batch);
 * - `batchAnswers('drop' | 'hold')`: the batch reaches the server and is applied there, but its
 *   answer is thrown away (the connection is destroyed) or kept back until the browser gives up;
 *   `batchAnswers('unavailable')`: the proxy answers 503 itself and the server never sees it;
 * - `serveAppFrom(port)`: the app's own files (every request outside /api, /ws and /uploads) come
 *   from another server, e.g. one serving an older build of the PWA (the API stays the same);
 * - `muteSockets(true)`: /ws frames from the server are swallowed while the socket stays open
 *   (lost realtime messages); `dropSockets()` closes every /ws connection (the device reconnects).
 *
 * The forwarding itself is support/loopback-proxy.ts.
 */
import type http from 'node:http';
import type net from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { passAnswer, startLoopbackProxy } from './loopback-proxy';

export interface BatchExchange {
  /** The entries' Idempotency-Keys, in the order sent. */
  keys: string[];
  /** Each entry's shape: a named mutation, or a REST call (queued by an older app). */
  shapes: ('named' | 'rest')[];
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
  batchGate(count: number, maxMs: number): void;
  batchAnswers(mode: BatchAnswerMode): void;
  muteSockets(muted: boolean): void;
  dropSockets(): void;
  /** The app's files from the server on `port`; undefined: the API server's own. */
  serveAppFrom(port: number | undefined): void;
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

/** An answer's text, decompressed when the server compressed it (JSON over 1 KB: br or gzip). */
function decoded(answer: http.IncomingMessage, body: Buffer): string {
  const encoding = String(answer.headers['content-encoding'] ?? '');
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return gunzipSync(body).toString();
  return body.toString();
}

export async function startGuaranteeProxy(targetPort: number): Promise<GuaranteeProxy> {
  const wsPairs = new Set<net.Socket>();
  const batches: BatchExchange[] = [];
  const pulls: PullExchange[] = [];
  const notePull = (url: string, answer: http.IncomingMessage) => {
    const parts: Buffer[] = [];
    answer.on('data', (c: Buffer) => parts.push(c));
    answer.on('end', () => {
      let reset = false;
      try {
        reset =
          (JSON.parse(decoded(answer, Buffer.concat(parts))) as { reset?: boolean }).reset === true;
      } catch {
        // an error answer
      }
      pulls.push({ query: url.split('?')[1] ?? '', status: answer.statusCode ?? 0, reset });
    });
  };
  let inFlight = 0;
  let maxInFlight = 0;
  let delayMs = 0;
  let gate: { count: number; maxMs: number } | undefined;
  let mode: BatchAnswerMode = 'deliver';
  let muted = false;
  let socketsOpened = 0;
  let pullsInFlight = 0;
  let pullsStarted = 0;
  let appPort: number | undefined;
  const pathOf = (req: http.IncomingMessage) => (req.url ?? '/').split('?')[0];
  const isBatch = (req: http.IncomingMessage) => req.method === 'POST' && pathOf(req) === BATCH;
  const isPull = (req: http.IncomingMessage) => req.method === 'GET' && pathOf(req) === PULL;

  const isServers = (req: http.IncomingMessage) =>
    /^\/(api|ws|uploads)(\/|$)/.test(pathOf(req) ?? '');
  const core = await startLoopbackProxy(targetPort, {
    portFor: (req) => (appPort !== undefined && !isServers(req) ? appPort : undefined),
    arrived: (req, res) => {
      if (isPull(req)) {
        pullsStarted++;
        pullsInFlight++;
        res.on('close', () => pullsInFlight--);
      }
      if (isBatch(req)) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        res.on('close', () => inFlight--);
      }
    },
    exchange: async ({ req, res, body, forward }) => {
      if (!isBatch(req)) {
        forward((answer) => {
          passAnswer(answer, res);
          if (isPull(req)) notePull(req.url ?? '', answer);
        });
        return;
      }
      let entries: { idempotencyKey: string; name?: string }[] = [];
      try {
        entries = (JSON.parse(body.toString()) as { entries: typeof entries }).entries;
      } catch {
        // not a batch body; recorded without keys
      }
      const exchange: BatchExchange = {
        keys: entries.map((e) => e.idempotencyKey),
        shapes: entries.map((e) => ('name' in e ? 'named' : 'rest')),
        referer: String(req.headers.referer ?? ''),
        delivered: false,
      };
      batches.push(exchange);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (gate) {
        const { count, maxMs } = gate;
        const until = Date.now() + maxMs;
        while (inFlight < count && Date.now() < until) {
          await new Promise((r) => setTimeout(r, 10));
        }
      }
      const answerMode = mode;
      if (answerMode === 'unavailable') {
        exchange.status = 503;
        res.writeHead(503, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: 'Service Unavailable' }), () => {
          exchange.delivered = true;
        });
        return;
      }
      forward((answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(parts);
          exchange.status = answer.statusCode;
          try {
            exchange.results = (
              JSON.parse(decoded(answer, text)) as {
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
      });
    },
    upgrade: (socket, upstream) => {
      upstream.once('connect', () => socketsOpened++);
      wsPairs.add(socket);
      socket.on('close', () => wsPairs.delete(socket));
      for (const s of [socket, upstream]) {
        s.on('close', () => {
          socket.destroy();
          upstream.destroy();
        });
      }
    },
    // Frames to the page pass unless muted (whole frames: the server's are small, one chunk).
    toClient: () => !muted,
  });
  return {
    ...core,
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
    batchGate: (count, maxMs) => {
      gate = { count, maxMs };
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
    serveAppFrom: (port) => {
      appPort = port;
    },
  };
}
