/**
 * /ws limits (docs/security.md "Live connection"): a per-socket message rate (close 1008 with a
 * reason), the frame size limit (1009), and bad frames answered without harming other sockets.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { makeFriends, makeUser, startTestServer, type TestServer } from '../../test/harness';
import { WS_RATE_CLOSE } from './hub';

// A window of a minute, so a stall on a loaded machine never splits a flood across two
// windows; the 'several windows' test has a server of its own with 1 s windows.
let server: TestServer;
let shortWindows: TestServer;
beforeAll(async () => {
  server = await startTestServer({ WS_MAX_MESSAGES: '5', WS_MESSAGE_WINDOW_SECONDS: '60' });
  shortWindows = await startTestServer({ WS_MAX_MESSAGES: '5', WS_MESSAGE_WINDOW_SECONDS: '1' });
});
afterAll(async () => {
  await server.stop();
  await shortWindows.stop();
});

const open: WebSocket[] = [];
afterEach(() => {
  for (const ws of open.splice(0)) ws.terminate();
});

interface Socket {
  ws: WebSocket;
  messages: { type: string; [k: string]: unknown }[];
  closed: Promise<{ code: number; reason: string }>;
  /** Sends a ping and waits for its pong (everything before it has been answered). */
  roundTrip(): Promise<void>;
}

async function connect(cookie: string, on: TestServer = server): Promise<Socket> {
  const ws = new WebSocket(`${on.url.replace('http', 'ws')}/ws`, { headers: { cookie } });
  open.push(ws);
  const messages: Socket['messages'] = [];
  ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return {
    ws,
    messages,
    closed,
    async roundTrip() {
      const pongs = messages.filter((m) => m.type === 'pong').length;
      ws.send(JSON.stringify({ type: 'ping' }));
      const deadline = Date.now() + 15_000;
      while (messages.filter((m) => m.type === 'pong').length === pongs) {
        if (Date.now() > deadline) throw new Error('no pong');
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

describe('/ws message rate (WS_MAX_MESSAGES=5 per window)', () => {
  it('closes a socket that sends too fast with 1008 and a reason; the person’s other socket lives', async () => {
    const a = await makeUser(server);
    const flood = await connect(a.client.cookieHeader);
    const calm = await connect(a.client.cookieHeader);
    for (let i = 0; i < 10; i++) flood.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await flood.closed).toEqual({ code: WS_RATE_CLOSE.code, reason: WS_RATE_CLOSE.reason });
    // It was answered up to its limit, not beyond.
    expect(flood.messages.filter((m) => m.type === 'pong').length).toBeLessThanOrEqual(5);
    await calm.roundTrip();
    expect(calm.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('lets a socket that keeps under the limit go on for several windows', async () => {
    const a = await makeUser(shortWindows);
    const s = await connect(a.client.cookieHeader, shortWindows);
    for (let window = 0; window < 3; window++) {
      for (let i = 0; i < 4; i++) await s.roundTrip();
      await new Promise((r) => setTimeout(r, 1050));
    }
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('counts malformed frames too', async () => {
    const a = await makeUser(server);
    const s = await connect(a.client.cookieHeader);
    for (let i = 0; i < 6; i++) s.ws.send('{not json');
    expect((await s.closed).code).toBe(1008);
  });
});

describe('bad frames harm nobody else', () => {
  it('answers malformed, binary and unknown frames, closes an oversized one (1009), and a friend’s socket keeps receiving', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    const bad = await connect(a.client.cookieHeader);
    const friend = await connect(b.client.cookieHeader);
    bad.ws.send('{"type":');
    bad.ws.send(Buffer.from([0xff, 0xfe, 0x00]), { binary: true });
    bad.ws.send(JSON.stringify({ type: 'subscribe', to: 'everything' }));
    await bad.roundTrip();
    const errors = bad.messages.filter((m) => m.type === 'error').map((m) => m.error);
    expect(errors).toEqual([
      'Messages must be JSON',
      'Send messages as JSON text',
      'Unknown message: send authenticate or ping',
    ]);
    bad.ws.send('x'.repeat(5000));
    expect((await bad.closed).code).toBe(1009);
    // The server is unharmed: the friend still gets pokes and new pings.
    const prompt = '00000000-0000-7000-8000-000000000001';
    const sent = await a.client.post('/api/pings', { promptId: prompt, receiverId: b.id });
    expect(sent.status).toBe(201);
    const deadline = Date.now() + 15_000;
    while (!friend.messages.some((m) => m.type === 'new_ping') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(friend.messages.some((m) => m.type === 'new_ping')).toBe(true);
    await friend.roundTrip();
  });
});
