/**
 * The bus between nodes (docs/deploy.md, "Live delivery across nodes"). It carries hints, never
 * data: "person P's change log reached number N" and "person P's push subscriptions changed".
 * Each node then reads what it needs from the database (realtime/relay.ts), so a hint lost or
 * repeated costs latency, never a ping: after the bus connection comes back, and on a slow timer,
 * every node catches up from the change log.
 *
 * - PostgreSQL: LISTEN/NOTIFY on a connection of its own. A write's hints are sent with
 *   pg_notify inside its transaction, so they reach the other nodes exactly when it commits and
 *   never for a write that rolled back. A payload holds at most 8,000 bytes: hints are split.
 * - SQLite (one process): nothing crosses a process boundary; the process's own announcements
 *   (realtime/events.ts) are the whole bus.
 *
 * On PostgreSQL the same connection also hears which people and sessions changed (a trigger's
 * notices, migration 010), for the sessions each node keeps in memory (db/session-cache.ts), and
 * its own heartbeat, which proves it still hears everything.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import type { Db } from '../db/connection';
import type { IdentityWatch, SessionCache } from '../db/session-cache';
import { logger } from '../logger';

export type Hint =
  { kind: 'changed'; userId: string; seq: number } | { kind: 'subscriptions'; userId: string };

export interface ChangeBus {
  /** In a write's transaction: the others hear of it only if it commits. */
  publishInTransaction(trx: Db, newest: ReadonlyMap<string, number>): Promise<void>;
  /** Now, outside any transaction. */
  publish(hints: Hint[]): Promise<void>;
  /** Hints from every node, this one's own included. */
  onHints(listener: (hints: Hint[]) => void): void;
  /** The bus was down and is back: hints sent meanwhile were missed. */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}

/** One process: its announcements already reach everything it has. */
export class LocalBus implements ChangeBus {
  async publishInTransaction(): Promise<void> {}
  async publish(): Promise<void> {}
  onHints(): void {}
  onReconnect(): void {}
  async close(): Promise<void> {}
}

export const BUS_CHANNEL = 'pingme_changes';
/** The listening connection's application_name (pg_stat_activity shows it). */
export const BUS_APPLICATION = 'pingme-bus';
/** The channel of migration 010's trigger: `u:<person>` or `*`; and the heartbeats. */
export const IDENTITY_CHANNEL = 'pingme_identity';
/** How often the listening connection sends itself a heartbeat on IDENTITY_CHANNEL. */
export const HEARTBEAT_EVERY_MS = 1_000;
/**
 * Sessions kept in memory are used only while the newest heartbeat heard was sent less than this
 * long ago: a connection cut without a word (no reset, no error yet) stops them within this time.
 */
export const HEARTBEAT_SILENCE_MS = 3_000;
/** Below PostgreSQL's 8,000-byte limit for a NOTIFY payload. */
const MAX_PAYLOAD = 7_900;

/** `c:<person>:<number>` and `s:<person>`, comma-separated. */
export function encodeHints(hints: Hint[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const h of hints) {
    const item = h.kind === 'changed' ? `c:${h.userId}:${h.seq}` : `s:${h.userId}`;
    if (current && current.length + 1 + item.length > MAX_PAYLOAD) {
      out.push(current);
      current = '';
    }
    current = current ? `${current},${item}` : item;
  }
  if (current) out.push(current);
  return out;
}

export function decodeHints(payload: string): Hint[] {
  const out: Hint[] = [];
  for (const item of payload.split(',')) {
    const [kind, userId, seq] = item.split(':');
    if (!userId) continue;
    if (kind === 'c' && seq && /^\d+$/.test(seq)) {
      out.push({ kind: 'changed', userId, seq: Number(seq) });
    } else if (kind === 's') out.push({ kind: 'subscriptions', userId });
  }
  return out;
}

const changedHints = (newest: ReadonlyMap<string, number>): Hint[] =>
  [...newest].map(([userId, seq]) => ({ kind: 'changed', userId, seq }));

/**
 * PostgreSQL's LISTEN/NOTIFY. The listening connection is its own pg.Client, not one of the pool:
 * a pooled connection goes back to the pool and stops listening. When it fails (the server
 * restarted, a network cut, pg_terminate_backend) it is opened again, after 0.1 s, then up to 5 s
 * between tries, and the reconnect listeners run once it listens again.
 */
export class PostgresBus implements ChangeBus, IdentityWatch {
  private client: pg.Client | undefined;
  private readonly hintListeners: ((hints: Hint[]) => void)[] = [];
  private readonly reconnectListeners: (() => void)[] = [];
  private closed = false;
  private retryMs = 100;
  private timer: NodeJS.Timeout | undefined;
  /** Times the connection was lost and listened again (tests, logs). */
  reconnects = 0;
  private sessions: SessionCache | undefined;
  /** This bus's heartbeats carry it, so each node counts its own only. */
  private readonly beatId = randomUUID();
  /**
   * When the newest of this bus's heartbeats that came back was sent, on the monotonic clock
   * (`performance.now()`, ms): a step of the wall clock must not make an old one look new.
   */
  private lastBeatHeard = -Infinity;
  private beatPending = false;
  private beatTimer: NodeJS.Timeout | undefined;
  /** Counts the listening connections: a new one may have missed notices meanwhile. */
  private listens = 0;

  constructor(
    private readonly url: string,
    private readonly db: Db,
  ) {}

  /** Resolves once it listens (server start fails when it cannot). */
  async start(): Promise<void> {
    await this.connect();
    this.beatTimer = setInterval(() => this.beat(), HEARTBEAT_EVERY_MS);
    this.beatTimer.unref();
  }

  /**
   * Sessions kept in memory are dropped as the trigger's notices say, and used only while this
   * connection is known to hear them (`epoch`).
   */
  attachSessionCache(cache: SessionCache): void {
    this.sessions = cache;
    cache.watchWith(this);
  }

  /**
   * IdentityWatch: undefined while the connection is down or its heartbeat has not come back for
   * HEARTBEAT_SILENCE_MS; otherwise the number of the connection, which changes when a new one
   * listens (notices sent in between were missed). A heartbeat heard proves that every notice
   * committed before it was heard too: PostgreSQL delivers them in the order of their commits.
   */
  epoch(now: number): number | undefined {
    // `now` is wall-clock time (Date.now(); a test asks about a later moment): its distance from
    // the present moves the monotonic one.
    const at = performance.now() + (now - Date.now());
    if (!this.client || at - this.lastBeatHeard > HEARTBEAT_SILENCE_MS) return undefined;
    return this.listens;
  }

  private beat() {
    const client = this.client;
    if (!client || this.beatPending) return;
    this.beatPending = true;
    client
      .query('select pg_notify($1, $2)', [
        IDENTITY_CHANNEL,
        `b:${this.beatId}:${performance.now()}`,
      ])
      .catch(() => undefined) // the connection's own error handler reconnects
      .finally(() => (this.beatPending = false));
  }

  private heardIdentity(payload: string) {
    if (payload.startsWith('b:')) {
      const [, id, sent] = payload.split(':');
      if (id === this.beatId) this.lastBeatHeard = Math.max(this.lastBeatHeard, Number(sent));
      return;
    }
    const cache = this.sessions;
    if (!cache) return;
    if (payload.startsWith('u:')) cache.forgetUser(payload.slice(2));
    else cache.forgetAll();
  }

  get listening(): boolean {
    return !!this.client;
  }

  /** The listening connection's backend pid (tests end it with pg_terminate_backend). */
  backendPid: number | undefined;

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: BUS_APPLICATION });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    client.on('notification', (n) => {
      if (n.channel === IDENTITY_CHANNEL) return this.heardIdentity(n.payload ?? '*');
      if (n.channel !== BUS_CHANNEL || !n.payload) return;
      const hints = decodeHints(n.payload);
      if (hints.length) for (const l of this.hintListeners) l(hints);
    });
    await client.connect();
    const r = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    await client.query(`listen ${BUS_CHANNEL}`);
    await client.query(`listen ${IDENTITY_CHANNEL}`);
    this.backendPid = r.rows[0]?.pid;
    this.listens += 1;
    this.client = client;
    this.retryMs = 100;
    this.beat();
  }

  private lost(client: pg.Client, err?: Error) {
    if (this.client !== client) return;
    this.client = undefined;
    this.backendPid = undefined;
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    if (this.closed) return;
    logger.warn({ err }, 'change bus: the LISTEN connection was lost; reconnecting');
    this.schedule();
  }

  private schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.connect().then(
        () => {
          this.reconnects += 1;
          logger.info({ reconnects: this.reconnects }, 'change bus: listening again');
          for (const l of this.reconnectListeners) l();
        },
        (err: unknown) => {
          logger.warn({ err }, 'change bus: reconnect failed');
          this.retryMs = Math.min(this.retryMs * 2, 5_000);
          if (!this.closed) this.schedule();
        },
      );
    }, this.retryMs);
    this.timer.unref();
  }

  async publishInTransaction(trx: Db, newest: ReadonlyMap<string, number>): Promise<void> {
    for (const payload of encodeHints(changedHints(newest))) {
      await sql`select pg_notify(${BUS_CHANNEL}, ${payload})`.execute(trx);
    }
  }

  async publish(hints: Hint[]): Promise<void> {
    for (const payload of encodeHints(hints)) {
      await sql`select pg_notify(${BUS_CHANNEL}, ${payload})`.execute(this.db);
    }
  }

  onHints(listener: (hints: Hint[]) => void): void {
    this.hintListeners.push(listener);
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.beatTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
