/**
 * Every frame the hub sends is a TEXT frame (docs/sync.md, Realtime). A browser hands a binary
 * frame to the page as a Blob, which a client reading `event.data` as JSON text drops: the
 * 'authenticated' answer came binary, so the PWA never counted itself live and never ran the
 * catch-up pull that recovers /ws frames lost while away (guarantee 6).
 */
import { ServerMessage } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { makeFriends, makeUser, startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

interface Frame {
  type: string;
  binary: boolean;
  json: unknown;
}

describe('/ws frames', () => {
  it('answers and fans out in text frames only', async () => {
    const [ada, bo] = [await makeUser(server), await makeUser(server)];
    await makeFriends(ada, bo);
    const ws = new WebSocket(server.url.replace(/^http/, 'ws') + '/ws', {
      headers: { cookie: ada.client.cookieHeader },
    });
    const frames: Frame[] = [];
    ws.on('message', (data, isBinary) => {
      const json: unknown = JSON.parse(data.toString());
      frames.push({ type: (json as { type: string }).type, binary: isBinary, json });
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const until = async (type: string) => {
      for (let i = 0; i < 100 && !frames.some((f) => f.type === type); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(frames.map((f) => f.type)).toContain(type);
    };
    try {
      ws.send(JSON.stringify({ type: 'authenticate', userId: ada.id }));
      await until('authenticated');
      ws.send(JSON.stringify({ type: 'ping' }));
      await until('pong');
      ws.send('not json');
      await until('error');
      const prompts = await bo.client.get('/api/prompts/default');
      const sent = await bo.client.post('/api/pings', {
        promptId: prompts.body[0].id,
        receiverId: ada.id,
      });
      expect(sent.status).toBe(201);
      await until('new_ping');
      await until('poke');
      expect(frames.filter((f) => f.binary)).toEqual([]);
      // Every frame is a ServerMessage (shared/src/schemas/sync.ts); new_ping carries the ping
      // exactly as the sender's answer had it.
      for (const f of frames) expect(ServerMessage.safeParse(f.json).error).toBeUndefined();
      const newPing = frames.find((f) => f.type === 'new_ping')!.json as { ping: unknown };
      expect(newPing.ping).toEqual(sent.body);
    } finally {
      ws.terminate();
    }
  });
});
