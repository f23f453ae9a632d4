/** A real /ws client for tests: signs in with a person's cookies and records every frame. */
import { WebSocket } from 'ws';
import type { Client } from './harness';

export interface Frame {
  type: string;
  [k: string]: unknown;
}

export class WsClient {
  readonly frames: Frame[] = [];
  private waiters: (() => void)[] = [];
  closed: { code: number } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      for (const w of this.waiters.splice(0)) w();
    });
    ws.on('close', (code) => {
      this.closed = { code };
      for (const w of this.waiters.splice(0)) w();
    });
    ws.on('error', () => undefined);
  }

  /** Opens /ws on `baseUrl` as the person signed in on `client`. */
  static async open(client: Client, baseUrl = client.baseUrl): Promise<WsClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, {
      headers: { cookie: client.cookieHeader },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new WsClient(ws);
  }

  /** The `new_ping` frames' ping ids so far. */
  newPingIds(): string[] {
    return this.frames
      .filter((f) => f.type === 'new_ping')
      .map((f) => (f.ping as { id: string }).id);
  }

  /** Resolves when `test` holds for the frames received, or fails after `timeoutMs`. */
  async until(
    test: (frames: Frame[]) => boolean,
    timeoutMs = 15_000,
    what = 'frames',
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test(this.frames)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no ${what} within ${timeoutMs} ms (${this.frames.length} frames)`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, Math.min(left, 200));
      });
    }
  }

  close() {
    this.ws.terminate();
  }
}
