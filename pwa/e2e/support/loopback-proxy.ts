/**
 * The core of the loopback HTTP proxies in front of the sync server: the browser tests' cuttable
 * proxy (support/proxy.ts), the guarantee tests' misbehaving one (support/guarantees-proxy.ts) and
 * the device bench's timing one (bench/device/proxy.ts) are thin layers over it.
 *
 * It forwards every HTTP request to 127.0.0.1:targetPort (the body read whole first) and pipes
 * WebSocket upgrades through as raw sockets. `cut()` pulls the cable: the listener closes and
 * every open connection (both sides) drops; `restore()` listens again on the same port.
 * Playwright's setOffline does not reach service-worker fetches in Chromium; this does.
 */
import http from 'node:http';
import net from 'node:net';

export interface ForwardExchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  /** The request's body, read whole. */
  body: Buffer;
  /**
   * Sends the request upstream. By default the answer is passed to the browser as it comes
   * (`passAnswer`); `onAnswer` takes it instead.
   */
  forward(onAnswer?: (answer: http.IncomingMessage) => void): void;
}

export interface ProxyLayer {
  /** A request arrived; its body is not read yet. */
  arrived?(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** The body is read: forward it, or answer `res` here. The default forwards as it is. */
  exchange?(x: ForwardExchange): void | Promise<void>;
  /** A WebSocket upgrade: `upstream` is connecting to the server. */
  upgrade?(client: net.Socket, upstream: net.Socket): void;
  /** Whether a chunk from the server's WebSocket end goes on to the browser (default: all, piped). */
  toClient?(chunk: Buffer): boolean;
  /** Where an HTTP request goes instead of targetPort (another server's files, say). */
  portFor?(req: http.IncomingMessage): number | undefined;
}

export interface ProxyCore {
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** The upstream answer, status and headers as they are, piped to the browser. */
export function passAnswer(answer: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
  answer.pipe(res);
}

export async function startLoopbackProxy(
  targetPort: number,
  layer: ProxyLayer = {},
): Promise<ProxyCore> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    if (sockets.has(s)) return; // a kept-alive upstream socket, reused by the next request
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };

  const server = http.createServer(async (req, res) => {
    layer.arrived?.(req, res);
    const chunks: Buffer[] = [];
    try {
      for await (const c of req) chunks.push(c as Buffer);
    } catch {
      return res.destroy(); // the cable was pulled mid-request
    }
    const body = Buffer.concat(chunks);
    const forward = (
      onAnswer: (answer: http.IncomingMessage) => void = (a) => passAnswer(a, res),
    ) => {
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: layer.portFor?.(req) ?? targetPort,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        onAnswer,
      );
      upstream.on('socket', track);
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    };
    if (layer.exchange) await layer.exchange({ req, res, body, forward });
    else forward();
  });
  server.on('connection', track);
  server.on('upgrade', (req, socket: net.Socket, head: Buffer) => {
    const upstream = net.connect(targetPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream);
      const toClient = layer.toClient;
      if (!toClient) upstream.pipe(socket);
      else
        upstream.on('data', (chunk: Buffer) => {
          if (toClient(chunk)) socket.write(chunk);
        });
    });
    track(upstream);
    for (const s of [socket, upstream]) {
      s.on('error', () => {
        socket.destroy();
        upstream.destroy();
      });
    }
    layer.upgrade?.(socket, upstream);
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
    cut: stop,
    restore: () => listen(port),
    close: stop,
  };
}
