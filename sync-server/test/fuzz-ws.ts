/**
 * The /ws part of the fuzz run (test/fuzz.test.ts): frames a client may send, with what the
 * server must answer to each (docs/sync.md "Realtime", realtime/hub.ts), and a recording socket.
 */
import { ClientMessage, WS_MAX_MESSAGE_BYTES } from '@pingme/shared';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { NASTY_STRINGS } from './fuzz-gen';

/** What the server does with one frame: one reply of a type, or closing with a code. */
export type Outcome = { reply: 'error' | 'pong' | 'authenticated' } | { close: number };

export type Frame =
  | { kind: 'text'; data: string }
  | { kind: 'binary'; data: Uint8Array }
  | { kind: 'fragments'; parts: string[] }
  /** A text frame whose bytes are not UTF-8. */
  | { kind: 'bad-utf8'; data: Buffer }
  /** Bytes written straight to the TCP socket: a frame the protocol forbids. */
  | { kind: 'protocol-error'; data: Buffer; what: string }
  /** Many `ping` messages at once, past the per-socket message limit. */
  | { kind: 'burst'; count: number };

export function describeFrame(f: Frame): string {
  switch (f.kind) {
    case 'text':
      return `text ${f.data.length > 120 ? `${f.data.length} chars ${JSON.stringify(f.data.slice(0, 60))}…` : JSON.stringify(f.data)}`;
    case 'binary':
      return `binary ${f.data.length} bytes`;
    case 'fragments':
      return `fragments ${JSON.stringify(f.parts).slice(0, 120)}`;
    case 'bad-utf8':
      return `text with invalid UTF-8 ${f.data.toString('hex').slice(0, 40)}`;
    case 'protocol-error':
      return `raw ${f.what}`;
    case 'burst':
      return `burst of ${f.count} pings`;
  }
}

/** What the hub must answer, from the contract (ClientMessage) and the limits. */
export function expected(f: Frame, ownId: string): Outcome {
  switch (f.kind) {
    case 'binary':
      return f.data.length > WS_MAX_MESSAGE_BYTES ? { close: 1009 } : { reply: 'error' };
    case 'bad-utf8':
      return { close: 1007 };
    case 'protocol-error':
      return { close: 1002 };
    case 'burst':
      return { close: 1008 };
    case 'fragments':
      return textOutcome(f.parts.join(''), ownId);
    case 'text':
      return textOutcome(f.data, ownId);
  }
}

function textOutcome(text: string, ownId: string): Outcome {
  if (Buffer.byteLength(text) > WS_MAX_MESSAGE_BYTES) return { close: 1009 };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { reply: 'error' };
  }
  const msg = ClientMessage.safeParse(raw);
  if (!msg.success) return { reply: 'error' };
  if (msg.data.type === 'ping') return { reply: 'pong' };
  return { reply: msg.data.userId === ownId ? 'authenticated' : 'error' };
}

/** Frames, mostly ones the hub answers with an error, some good ones, some that close. */
export function frameArb(ids: string[], ownId: string): fc.Arbitrary<Frame> {
  const text = (a: fc.Arbitrary<string>) => a.map((data): Frame => ({ kind: 'text', data }));
  const json = (a: fc.Arbitrary<unknown>) => text(a.map((v) => JSON.stringify(v) ?? 'null'));
  return fc.oneof(
    { weight: 3, arbitrary: text(fc.string({ maxLength: 60 })) },
    {
      weight: 2,
      arbitrary: text(fc.constantFrom(...NASTY_STRINGS, '{', '{"type":', '"ping"', '')),
    },
    { weight: 3, arbitrary: json(fc.jsonValue({ maxDepth: 3 })) },
    {
      weight: 4,
      arbitrary: json(
        fc.record(
          {
            type: fc.constantFrom(
              'authenticate',
              'ping',
              'PING',
              'pong',
              'new_ping',
              'poke',
              '',
              7,
              null,
            ),
            userId: fc.oneof(
              fc.constantFrom(...ids, ownId, ownId.toUpperCase()),
              fc.uuid(),
              fc.jsonValue({ maxDepth: 1 }),
            ),
            extra: fc.jsonValue({ maxDepth: 1 }),
          },
          { requiredKeys: ['type'] },
        ),
      ),
    },
    {
      weight: 3,
      arbitrary: json(fc.constantFrom({ type: 'ping' }, { type: 'authenticate', userId: ownId })),
    },
    {
      weight: 2,
      arbitrary: fc.uint8Array({ maxLength: 64 }).map((data): Frame => ({ kind: 'binary', data })),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(
          fc.constantFrom(
            '{"type":',
            '"ping"',
            '}',
            '"authenticate","userId":',
            JSON.stringify(ownId),
            'x',
          ),
          { minLength: 2, maxLength: 5 },
        )
        .map((parts): Frame => ({ kind: 'fragments', parts })),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: WS_MAX_MESSAGE_BYTES + 1, max: 4 * WS_MAX_MESSAGE_BYTES })
        .map((n): Frame => ({ kind: 'text', data: `{"type":"ping","pad":"${'x'.repeat(n)}"}` })),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.constant('x'.repeat(1500)), { minLength: 3, maxLength: 4 })
        .map((parts): Frame => ({ kind: 'fragments', parts })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          Buffer.from([0xff, 0xfe]),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('{"type":"ping\xed\xa0\x80"}', 'latin1'),
        )
        .map((data): Frame => ({ kind: 'bad-utf8', data })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Frame>(
        {
          kind: 'protocol-error',
          data: Buffer.from([0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]),
          what: 'unmasked text frame',
        },
        {
          kind: 'protocol-error',
          data: Buffer.from([0xf1, 0x80, 0, 0, 0, 0]),
          what: 'RSV bits set',
        },
        {
          kind: 'protocol-error',
          data: Buffer.from([0x83, 0x80, 0, 0, 0, 0]),
          what: 'reserved opcode 3',
        },
        {
          kind: 'protocol-error',
          data: Buffer.from([0x09, 0x80, 0, 0, 0, 0]),
          what: 'fragmented ping',
        },
        {
          kind: 'protocol-error',
          data: Buffer.from([0x80, 0x80, 0, 0, 0, 0]),
          what: 'continuation without a start',
        },
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 250, max: 300 })
        .map((count): Frame => ({ kind: 'burst', count })),
    },
  );
}

export interface Received {
  type: string;
  [k: string]: unknown;
}

/** A real client socket that records what it receives and how it closed. */
export class Recorder {
  readonly messages: Received[] = [];
  /** Frames that were not JSON (the server never sends any). */
  readonly nonJson: string[] = [];
  closed: { code: number; reason: string } | undefined;
  private waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      try {
        this.messages.push(JSON.parse(data.toString('utf8')) as Received);
      } catch {
        this.nonJson.push(data.toString('utf8').slice(0, 200));
      }
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    ws.on('error', () => this.wake());
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  static open(url: string, headers: Record<string, string>): Promise<Recorder> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const rec = new Recorder(ws);
      ws.once('open', () => resolve(rec));
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`upgrade refused: ${res.statusCode}`)),
      );
      ws.once('error', reject);
    });
  }

  /** Waits until `done()` holds or the socket closes; false on timeout. */
  async until(done: () => boolean, timeoutMs = 20_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (this.closed) return done();
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, Math.min(left, 500));
      });
    }
    return true;
  }

  /** Sends one frame as the fuzz case says (garbage straight to the TCP socket). */
  send(f: Frame) {
    switch (f.kind) {
      case 'text':
        return this.ws.send(f.data);
      case 'binary':
        return this.ws.send(f.data, { binary: true });
      case 'bad-utf8':
        return this.ws.send(f.data, { binary: false });
      case 'fragments':
        f.parts.forEach((p, i) =>
          this.ws.send(p, { fin: i === f.parts.length - 1, binary: false }),
        );
        return;
      case 'protocol-error':
        (this.ws as unknown as { _socket: { write(b: Buffer): void } })._socket.write(f.data);
        return;
      case 'burst':
        for (let i = 0; i < f.count; i++) this.ws.send('{"type":"ping"}');
        return;
    }
  }
}
