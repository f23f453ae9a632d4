import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ WS_HEARTBEAT_MS: '1000' });
});
afterAll(() => server.stop());

const open: WebSocket[] = [];
afterEach(() => {
  for (const ws of open.splice(0)) ws.terminate();
});

interface Msg {
  type: string;
  [k: string]: unknown;
}

/** A real ws client that records every frame it receives. */
class Device {
  readonly messages: Msg[] = [];
  private waiters: (() => void)[] = [];
  closed: { code: number; reason: string } | undefined;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as Msg);
      for (const w of this.waiters.splice(0)) w();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const w of this.waiters.splice(0)) w();
    });
  }

  send(data: unknown) {
    this.ws.send(typeof data === 'string' ? data : JSON.stringify(data));
  }

  /** The first message of `type` not yet taken. */
  async next(type: string, timeoutMs = 15_000): Promise<Msg> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.messages.findIndex((m) => m.type === type);
      if (i >= 0) return this.messages.splice(i, 1)[0]!;
      if (this.closed) throw new Error(`closed (${this.closed.code}) before ${type}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, left);
      });
    }
  }

  /**
   * Everything the server sent before now has arrived: a ping/pong round trip on this socket
   * comes after any frame the server had already written to it.
   */
  async settle(): Promise<void> {
    this.send({ type: 'ping' });
    await this.next('pong');
  }

  count(type: string) {
    return this.messages.filter((m) => m.type === type).length;
  }

  async waitClosed(timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.closed;
  }
}

function wsUrl() {
  return server.url.replace(/^http/, 'ws') + '/ws';
}

async function connect(
  who: MadeUser | undefined,
  opts: { path?: string; headers?: Record<string, string>; autoPong?: boolean } = {},
): Promise<Device> {
  const headers = { ...(who ? { cookie: who.client.cookieHeader } : {}), ...opts.headers };
  const url = opts.path ? server.url.replace(/^http/, 'ws') + opts.path : wsUrl();
  const ws = new WebSocket(url, { headers, autoPong: opts.autoPong ?? true });
  open.push(ws);
  const device = new Device(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        reject(Object.assign(new Error('refused'), { status: res.statusCode, body })),
      );
    });
    ws.once('error', reject);
  });
  return device;
}

async function refusal(who: MadeUser | undefined, opts: Parameters<typeof connect>[1] = {}) {
  try {
    await connect(who, opts);
  } catch (err) {
    return err as { status?: number; body?: string };
  }
  throw new Error('the upgrade was accepted');
}

async function authenticated(who: MadeUser): Promise<Device> {
  const d = await connect(who);
  d.send({ type: 'authenticate', userId: who.id });
  expect(await d.next('authenticated')).toEqual({ type: 'authenticated', userId: who.id });
  return d;
}

async function sendPing(from: MadeUser, to: MadeUser) {
  const prompts = await from.client.get('/api/prompts/default');
  const res = await from.client.post('/api/pings', {
    promptId: prompts.body[0].id,
    receiverId: to.id,
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe('/ws', () => {
  it('delivers new_ping to every socket of the receiver only, and pokes affected people', async () => {
    const a = await makeUser(server, { firstName: 'Ann' });
    const b = await makeUser(server, { firstName: 'Bob' });
    const c = await makeUser(server, { firstName: 'Cy' });
    await makeFriends(a, b);
    const aDev = await authenticated(a);
    const bPhone = await authenticated(b);
    const bLaptop = await authenticated(b);
    const cDev = await authenticated(c);
    expect(server.hub.socketCount(b.id)).toBe(2);

    const ping = await sendPing(a, b);
    for (const dev of [bPhone, bLaptop]) {
      const msg = await dev.next('new_ping');
      expect(msg.ping).toMatchObject({
        id: ping.id,
        senderId: a.id,
        receiverId: b.id,
        sender: { id: a.id, firstName: 'Ann' },
      });
      await dev.next('poke');
    }
    // The sender's devices are poked (their sent list changed) but get no new_ping.
    await aDev.next('poke');
    await Promise.all([aDev.settle(), cDev.settle()]);
    expect(aDev.count('new_ping')).toBe(0);
    expect(cDev.messages).toEqual([]);
  });

  it('refuses an upgrade without a valid session with 401', async () => {
    const none = await refusal(undefined);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body!)).toMatchObject({ error: 'Unauthorized', code: 'unauthorized' });

    const a = await makeUser(server);
    const forged = a.client.cookieHeader.replace(/pingme\.sid=[^;]+/, 'pingme.sid=forged');
    expect((await refusal(undefined, { headers: { cookie: forged } })).status).toBe(401);

    // A signed-out session is no session.
    const cookie = a.client.cookieHeader;
    await a.client.post('/api/logout');
    expect((await refusal(undefined, { headers: { cookie } })).status).toBe(401);
  });

  it('refuses other paths and foreign origins', async () => {
    const a = await makeUser(server);
    expect((await refusal(a, { path: '/elsewhere' })).status).toBe(404);
    expect((await refusal(a, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const same = await connect(a, { headers: { origin: server.url } });
    await same.settle();
    // A DNS name in Host is not trusted (rebinding): only PUBLIC_URL's origin and the like.
    const rebound = { host: 'evil.example', origin: 'http://evil.example' };
    expect((await refusal(a, { headers: rebound })).status).toBe(403);
  });

  it('answers a forged userId with an error and keeps the cookie’s identity', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    const dev = await connect(b);
    dev.send({ type: 'authenticate', userId: a.id });
    expect(await dev.next('error')).toEqual({
      type: 'error',
      error: 'userId does not match the session',
    });
    expect(dev.closed).toBeUndefined();
    // Still B's socket: a ping to B arrives, a ping to A does not.
    await sendPing(a, b);
    await dev.next('new_ping');
    await sendPing(b, a);
    await dev.settle();
    expect(dev.count('new_ping')).toBe(0);
  });

  it('answers malformed and unknown messages with an error and stays usable', async () => {
    const a = await makeUser(server);
    const dev = await authenticated(a);
    const other = await authenticated(a);
    dev.send('{not json');
    expect((await dev.next('error')).error).toBe('Messages must be JSON');
    dev.send({ type: 'subscribe', channel: 'everything' });
    expect((await dev.next('error')).error).toContain('Unknown message');
    dev.send(JSON.stringify([1, 2, 3]));
    await dev.next('error');
    await dev.settle();
    await other.settle();
    expect(other.count('error')).toBe(0);
    expect(dev.closed).toBeUndefined();
  });

  it('closes a socket that sends an oversized frame with 1009, leaving the others open', async () => {
    const a = await makeUser(server);
    const dev = await authenticated(a);
    const other = await authenticated(a);
    dev.send({ type: 'authenticate', userId: 'x'.repeat(5000) });
    expect((await dev.waitClosed())?.code).toBe(1009);
    await other.settle();
  });

  it('terminates sockets that miss a heartbeat, keeps the ones that answer', async () => {
    const a = await makeUser(server);
    const silent = await connect(a, { autoPong: false });
    const alive = await connect(a);
    const closed = await silent.waitClosed();
    expect(closed?.code).toBe(1006);
    // Two more heartbeats: the socket that answers stays.
    await new Promise((r) => setTimeout(r, 2500));
    expect(alive.closed).toBeUndefined();
    await alive.settle();
  });

  it('closes sockets whose session ended (4401)', async () => {
    const a = await makeUser(server);
    const dev = await authenticated(a);
    await a.client.post('/api/logout');
    expect((await dev.waitClosed())?.code).toBe(4401);
  });
});
