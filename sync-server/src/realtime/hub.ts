/**
 * The /ws hub (docs/sync.md, "Realtime"): a `ws` server in noServer mode on the HTTP server's
 * 'upgrade' event. The upgrade is authenticated by the session cookie alone; committed changes
 * reach every open socket of each affected person as {type:'poke'} (the device then pulls) and a
 * delivered ping reaches its receiver as {type:'new_ping', ping}. Nothing here is the only copy
 * of anything: a lost frame is recovered by the next pull.
 */
import { cookieKeys } from '../cookie-keys';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import Cookies from 'cookies';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  ClientMessage,
  WS_MAX_MESSAGE_BYTES,
  type ErrorBody,
  type ErrorCode,
  type Ping,
  type ServerMessage,
} from '@pingme/shared';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { SESSION_COOKIE, getSessionWithUser, liveSessionUsers } from '../db/sessions';
import { findUserById } from '../db/users';
import { jsonOf } from '../json';
import { logger } from '../logger';
import { originPolicy } from '../services/origins';
import type { ChangeEvents } from './events';

export const WS_PATH = '/ws';

interface SocketInfo {
  userId: string;
  sessionId: string;
  alive: boolean;
  /** Messages received in the current rate window, and when that window started. */
  received: number;
  windowStart: number;
}

/**
 * The close code of a server shutting down: 1012 (Service Restart), so a client reconnects at
 * once, to this server when it is back or to another behind the same address.
 */
export const WS_RESTART_CLOSE = { code: 1012, reason: 'Service restart' } as const;

/** The close code and reason for a socket that sends faster than WS_MAX_MESSAGES allows. */
export const WS_RATE_CLOSE = { code: 1008, reason: 'Too many messages: slow down' } as const;

/** How many sessions the heartbeat reads per query. */
const SESSION_CHECK_CHUNK = 500;

const frame = (m: ServerMessage) => Buffer.from(JSON.stringify(m));

/**
 * The `new_ping` frame of a ServerMessage: the ping's JSON is the one its HTTP answer already
 * made (jsonOf), spliced in rather than serialised again for every socket.
 */
export function newPingFrame(ping: Ping): Buffer {
  const message = { type: 'new_ping', ping } satisfies ServerMessage;
  return Buffer.from(`{"type":"${message.type}","ping":${jsonOf(message.ping)}}`);
}
const POKE = frame({ type: 'poke' });
const PONG = frame({ type: 'pong' });

export class RealtimeHub {
  private readonly wss = new WebSocketServer({
    noServer: true,
    // Larger frames close the socket with 1009 (Message Too Big) before they are buffered whole.
    maxPayload: WS_MAX_MESSAGE_BYTES,
    clientTracking: false,
  });
  private readonly byUser = new Map<string, Set<WebSocket>>();
  private readonly info = new Map<WebSocket, SocketInfo>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly originOk: ReturnType<typeof originPolicy>;
  private checkingSessions = false;
  private closing = false;

  constructor(private readonly deps: { db: Db; config: Config; events: ChangeEvents }) {
    this.originOk = originPolicy(deps.config);
    deps.events.on('newPing', this.onNewPing);
    deps.events.on('changed', this.onChanged);
    this.heartbeat = setInterval(() => this.beat(), deps.config.wsHeartbeatMs);
    this.heartbeat.unref();
  }

  /** Open sockets, everyone's (metrics). */
  get size(): number {
    return this.info.size;
  }

  /** Open sockets of one person (tests and diagnostics). */
  socketCount(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** The people with a socket open on this node. */
  people(): string[] {
    return [...this.byUser.keys()];
  }

  /** Told when a person's first socket on this node opens and their last one closes. */
  presence: { opened(userId: string): void; closed(userId: string): void } | undefined;

  /** A delivered ping to its receiver's sockets (what another node's write told, relay.ts). */
  sendNewPing(receiverId: string, ping: Ping): void {
    this.onNewPing(receiverId, ping);
  }

  /** {type:'poke'} to each of these people's sockets. */
  poke(userIds: string[]): void {
    this.onChanged(userIds);
  }

  // ---------- 1. the upgrade ----------

  /** For http.Server's 'upgrade' event. */
  readonly handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (this.closing) return refuse(socket, 503, 'The server is shutting down', 'unavailable');
    const path = (req.url ?? '/').split('?')[0];
    if (path !== WS_PATH) return refuse(socket, 404, 'No such route', 'not_found');
    if (!this.originAllowed(req)) {
      return refuse(socket, 403, 'This origin may not open the live connection', 'forbidden');
    }
    this.identify(req).then(
      (who) => {
        if (!who) return refuse(socket, 401, 'Unauthorized', 'unauthorized');
        if (this.closing) return refuse(socket, 503, 'The server is shutting down', 'unavailable');
        if (socket.destroyed) return;
        this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws, who));
      },
      (err: unknown) => {
        logger.error({ err }, 'ws upgrade failed');
        refuse(socket, 500, 'Something went wrong on our side.', 'internal');
      },
    );
  };

  /**
   * A browser always sends Origin on a WebSocket handshake: it must name this app by the same
   * policy as the CSRF check (middleware/csrf.ts), so another site cannot ride the visitor's
   * cookie (cross-site WebSocket hijacking). Clients that are not browsers send none.
   */
  private originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (!origin) return true;
    const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
    const scheme =
      this.deps.config.trustProxy && typeof req.headers['x-forwarded-proto'] === 'string'
        ? req.headers['x-forwarded-proto'].split(',')[0]!.trim()
        : secure
          ? 'https'
          : 'http';
    return this.originOk(origin, `${scheme}://${req.headers.host ?? ''}`);
  }

  /** The signed session cookie, the session row it names, and the person in it. */
  private async identify(req: IncomingMessage): Promise<SocketInfo | undefined> {
    const cookies = new Cookies(req, NO_RESPONSE, {
      keys: cookieKeys(this.deps.config.sessionKeys) as unknown as string[],
    });
    const sessionId = cookies.get(SESSION_COOKIE, { signed: true });
    if (!sessionId) return undefined;
    const userId = await this.sessionUser(sessionId);
    return userId
      ? { userId, sessionId, alive: true, received: 0, windowStart: Date.now() }
      : undefined;
  }

  private async sessionUser(sessionId: string): Promise<string | undefined> {
    // Idle and absolute expiry apply here too; an open socket alone does not count as a use.
    const session = await getSessionWithUser(this.deps.db, sessionId, {
      idleMs: this.deps.config.sessionIdleMs,
    });
    const userId = session?.data.userId;
    if (typeof userId !== 'string') return undefined;
    // The person was read with the session when its row names them (always, as setSession
    // writes it).
    if (session!.userId === userId) return session!.user ? userId : undefined;
    return (await findUserById(this.deps.db, userId)) ? userId : undefined;
  }

  // ---------- 2. sockets and their messages ----------

  private attach(ws: WebSocket, who: SocketInfo) {
    this.info.set(ws, who);
    let set = this.byUser.get(who.userId);
    if (!set) {
      this.byUser.set(who.userId, (set = new Set()));
      this.presence?.opened(who.userId);
    }
    set.add(ws);
    ws.on('pong', () => {
      who.alive = true;
    });
    ws.on('message', (data, isBinary) => this.onMessage(ws, who, data, isBinary));
    // 'error' precedes the close of an oversized frame (1009); the close handler tidies up.
    ws.on('error', () => undefined);
    ws.on('close', () => this.detach(ws));
  }

  private detach(ws: WebSocket) {
    const who = this.info.get(ws);
    this.info.delete(ws);
    if (!who) return;
    const set = this.byUser.get(who.userId);
    set?.delete(ws);
    if (set?.size === 0) {
      this.byUser.delete(who.userId);
      this.presence?.closed(who.userId);
    }
  }

  /**
   * Each socket may send WS_MAX_MESSAGES per WS_MESSAGE_WINDOW_SECONDS (a fixed window); one more
   * closes that socket with 1008 (policy violation). Other sockets, the person's included, go on.
   */
  private overRate(ws: WebSocket, who: SocketInfo): boolean {
    const { max, windowMs } = this.deps.config.wsMessageLimit;
    const now = Date.now();
    if (now - who.windowStart >= windowMs) {
      who.windowStart = now;
      who.received = 0;
    }
    who.received += 1;
    if (who.received <= max) return false;
    if (ws.readyState === WebSocket.OPEN) ws.close(WS_RATE_CLOSE.code, WS_RATE_CLOSE.reason);
    return true;
  }

  private onMessage(ws: WebSocket, who: SocketInfo, data: RawData, isBinary: boolean) {
    if (this.overRate(ws, who)) return;
    // Text frames, like the fan-out: a browser hands a binary frame to the page as a Blob.
    const reply = (m: ServerMessage) => ws.send(frame(m), { binary: false });
    if (isBinary) return reply({ type: 'error', error: 'Send messages as JSON text' });
    let raw: unknown;
    try {
      raw = JSON.parse(rawText(data));
    } catch {
      return reply({ type: 'error', error: 'Messages must be JSON' });
    }
    const parsed = ClientMessage.safeParse(raw);
    if (!parsed.success) {
      return reply({ type: 'error', error: 'Unknown message: send authenticate or ping' });
    }
    const msg = parsed.data;
    switch (msg.type) {
      case 'authenticate':
        // Identity comes from the cookie alone; the message is kept for older clients.
        if (msg.userId === who.userId) return reply({ type: 'authenticated', userId: who.userId });
        return reply({ type: 'error', error: 'userId does not match the session' });
      case 'ping':
        return ws.send(PONG, { binary: false });
    }
  }

  // ---------- 3. fan-out: one serialised frame for every socket ----------

  private sendTo(userId: string, data: Buffer) {
    const set = this.byUser.get(userId);
    if (!set) return;
    for (const ws of set) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      this.cork(ws);
      ws.send(data, { binary: false });
    }
  }

  /**
   * Frames sent to one socket in the same tick (a receiver's new_ping and then its poke, sent by
   * one commit) leave in one write, one system call, instead of one each: the socket is corked
   * until the tick ends.
   */
  private readonly corked = new Set<Duplex>();
  private cork(ws: WebSocket) {
    const socket = (ws as unknown as { _socket?: Duplex })._socket;
    if (!socket || this.corked.has(socket) || typeof socket.cork !== 'function') return;
    socket.cork();
    if (this.corked.size === 0) process.nextTick(this.uncorkAll);
    this.corked.add(socket);
  }
  private readonly uncorkAll = () => {
    for (const socket of this.corked) socket.uncork();
    this.corked.clear();
  };

  private readonly onNewPing = (receiverId: string, ping: Ping) => {
    if (!this.byUser.has(receiverId)) return;
    this.sendTo(receiverId, newPingFrame(ping));
  };

  private readonly onChanged = (userIds: string[]) => {
    for (const id of userIds) this.sendTo(id, POKE);
  };

  // ---------- 4. heartbeat ----------

  /**
   * Every WS_HEARTBEAT_MS: a socket that did not answer the previous ping is dead and is
   * terminated; the others are pinged again. Sockets whose session has ended (sign-out, password
   * change) are closed with 4401, so the device signs in again.
   */
  private beat() {
    for (const [ws, who] of this.info) {
      if (!who.alive) {
        ws.terminate();
        continue;
      }
      who.alive = false;
      ws.ping();
    }
    void this.closeEndedSessions();
  }

  /**
   * Reads the sessions of all open sockets SESSION_CHECK_CHUNK at a time, one query each, and
   * lets the event loop serve requests and deliveries between chunks: with thousands of sockets,
   * one query per session awaited back to back held everything up for up to a second.
   */
  private async closeEndedSessions() {
    if (this.checkingSessions || this.info.size === 0) return;
    this.checkingSessions = true;
    try {
      const ids = [...new Set([...this.info.values()].map((who) => who.sessionId))];
      const live = new Map<string, string>();
      for (let i = 0; i < ids.length; i += SESSION_CHECK_CHUNK) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        const part = await liveSessionUsers(this.deps.db, ids.slice(i, i + SESSION_CHECK_CHUNK), {
          idleMs: this.deps.config.sessionIdleMs,
        });
        for (const [id, userId] of part) live.set(id, userId);
      }
      const checked = new Set(ids);
      for (const [ws, who] of this.info) {
        // A socket opened while the chunks were read was checked by its own upgrade.
        if (!checked.has(who.sessionId)) continue;
        if (live.get(who.sessionId) !== who.userId) ws.close(4401, 'Session ended');
      }
    } catch (err) {
      logger.error({ err }, 'ws session check failed');
    } finally {
      this.checkingSessions = false;
    }
  }

  /**
   * Shutdown: refuses new sockets, closes every open one with 1012 (Service Restart) and waits
   * for their closing handshakes; sockets still open after `graceMs` are cut.
   */
  async close(graceMs = 1000): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    this.deps.events.off('newPing', this.onNewPing);
    this.deps.events.off('changed', this.onChanged);
    const sockets = [...this.info.keys()];
    const closed = sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          ws.once('close', () => resolve());
          ws.close(WS_RESTART_CLOSE.code, WS_RESTART_CLOSE.reason);
        }),
    );
    let timer: NodeJS.Timeout | undefined;
    const cut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        for (const ws of sockets) ws.terminate();
        resolve();
      }, graceMs);
    });
    await Promise.race([Promise.all(closed), cut]);
    clearTimeout(timer);
    this.info.clear();
    this.byUser.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** `cookies` only reads the request here; a refused signature would write to this. */
const NO_RESPONSE = {
  getHeader: () => undefined,
  setHeader: () => undefined,
} as unknown as ConstructorParameters<typeof Cookies>[1];

/** Answers the handshake with an HTTP error (the API's error body) and closes the connection. */
function refuse(socket: Duplex, status: number, error: string, code: ErrorCode) {
  if (socket.destroyed) return;
  const body = JSON.stringify({ error, code } satisfies ErrorBody);
  const reason = STATUS_CODES[status] ?? 'Error';
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body,
  );
}
