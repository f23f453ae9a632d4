/** A minimal keep-alive HTTP client for the sequential benchmarks (delivery, pull). */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export interface HttpResult {
  status: number;
  body: Buffer;
  /** Time from the call to the last byte of the answer, ms. */
  ms: number;
}

export function request(
  base: string,
  method: string,
  path: string,
  opts: { cookie?: string; body?: unknown } = {},
): Promise<HttpResult> {
  const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
  const url = new URL(path, base);
  const headers: Record<string, string | number> = {
    accept: 'application/json',
    origin: url.origin,
  };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(parts),
          ms: performance.now() - t0,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export function json<T = unknown>(r: HttpResult): T {
  return JSON.parse(r.body.toString('utf8')) as T;
}

export function expectStatus(r: HttpResult, ok: number[], what: string) {
  if (!ok.includes(r.status)) {
    throw new Error(`${what}: HTTP ${r.status} ${r.body.toString('utf8').slice(0, 300)}`);
  }
}
