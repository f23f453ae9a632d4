/**
 * Sessions and their people kept in memory between requests (docs/performance.md, "Sessions kept
 * in memory", and for PostgreSQL "Sessions kept in memory on PostgreSQL"). Every signed-in request
 * reads its session and its person; read from the database each time, that was about a quarter of
 * a ping send's CPU on SQLite, and a fifth of it on PostgreSQL (a join with every column of the
 * person, a round trip).
 *
 * An entry stays exactly as long as the rows it copies are unchanged:
 * - every statement of this process that writes `users` or `sessions` drops what it may change:
 *   the one person or session a statement keyed by `id` writes, or everything for any other write
 *   to those tables (a sign-up, every session of a person, a migration, a test's own update). On
 *   SQLite the statement cache (connection.ts) wraps each such statement to drop it before it runs
 *   (`watchIdentityWrites`); on PostgreSQL each connection of the pool drops it when it goes back
 *   to the pool, after its commit (`watchPostgresIdentityWrites`): until the commit, a read on
 *   another connection still sees the rows as they were;
 * - writes by others reach it through an `IdentityWatch`. SQLite: another connection's commit (a
 *   second process such as `npm run make-admin`, or another handle on the same file) changes
 *   `PRAGMA data_version`, read at most every OTHER_WRITERS_EVERY_MS (read on every lookup, the
 *   pragma alone cost 10 µs, near half of the two reads it replaces): everything is dropped.
 *   PostgreSQL: a trigger on both tables (migration 010) names to every node the person of each
 *   changed row (a person, or one of their sessions), whoever wrote it; the change bus's listening
 *   connection hears it (realtime/bus.ts). While that connection is down, or has not heard its own
 *   heartbeat for a few seconds, the cache is not used at all, and after it comes back everything
 *   is dropped;
 * - a read that was under way while anything was dropped is not kept (`tick`).
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';
import type pg from 'pg';
import { LRUCache } from 'lru-cache';
import type { Db } from './connection';
import type { UserRow } from './schema';

/** The session row's columns a request needs. */
export interface SessionRow {
  data: string;
  expiresAt: number;
  lastSeenAt: number | null;
  userId: string | null;
}

export interface CachedSession {
  session: SessionRow;
  /** The person the row names (frozen: one object serves many requests); undefined if none. */
  user: UserRow | undefined;
}

/** Sessions kept at the most: every signed-in device of a large community, a few KB each. */
export const SESSION_CACHE_SIZE = 20_000;

/** How often a lookup checks for another connection's commits (`PRAGMA data_version`). */
export const OTHER_WRITERS_EVERY_MS = 20;

/** How the cache learns of writes it did not make itself. */
export interface IdentityWatch {
  /**
   * A value that changes whenever writes by others may have gone unseen (everything cached
   * before is dropped), or undefined while they cannot be seen at all (the cache is not used).
   */
  epoch(now: number): unknown;
}

/** SQLite: another connection's commit changes `PRAGMA data_version`. */
export class SqliteDataVersion implements IdentityWatch {
  private readonly dataVersion: BetterSqlite3.Statement<[], number>;
  private version: number;
  private checked = 0;

  constructor(sqlite: BetterSqlite3.Database) {
    this.dataVersion = sqlite.prepare<[], number>('PRAGMA data_version').pluck();
    this.version = this.dataVersion.get()!;
  }

  /** Read at most every OTHER_WRITERS_EVERY_MS. */
  epoch(now: number): number {
    if (now - this.checked >= OTHER_WRITERS_EVERY_MS) {
      this.checked = now;
      this.version = this.dataVersion.get()!;
    }
    return this.version;
  }
}

/** No way to hear of others' writes (PostgreSQL before the change bus is attached): never used. */
export const UNWATCHED: IdentityWatch = { epoch: () => undefined };

export class SessionCache {
  private readonly entries: LRUCache<string, CachedSession>;
  /** Cached session ids per person, to drop a person's sessions when their row changes. */
  private readonly byUser = new Map<string, Set<string>>();
  /** Counts the drops: a read that started before one must not be kept. */
  private tick = 0;
  private lastEpoch: unknown;
  /** Lookups answered from memory, and reads kept (tests, experiments). */
  readonly stats = { hits: 0, misses: 0, kept: 0 };

  constructor(
    private watch: IdentityWatch,
    max = SESSION_CACHE_SIZE,
  ) {
    this.lastEpoch = watch.epoch(Date.now());
    this.entries = new LRUCache({
      max,
      dispose: (entry, sessionId) => this.unindex(entry, sessionId),
    });
  }

  /** From now on, others' writes are heard through `watch` (PostgreSQL: the change bus). */
  watchWith(watch: IdentityWatch): void {
    this.watch = watch;
    this.forgetAll();
  }

  /**
   * Whether what is cached may be used now: false while others' writes cannot be heard; when
   * some may have gone unheard, everything is dropped first.
   */
  private current(now: number): boolean {
    const epoch = this.watch.epoch(now);
    if (epoch === undefined) {
      if (this.entries.size) this.forgetAll();
      return false;
    }
    if (epoch !== this.lastEpoch) {
      this.lastEpoch = epoch;
      this.forgetAll();
    }
    return true;
  }

  /** Whether what is kept may be used now (metrics). */
  inUse(now = Date.now()): boolean {
    return this.watch.epoch(now) !== undefined;
  }

  /** The cached session, unless others' writes may since have changed it (IdentityWatch). */
  get(sessionId: string, now = Date.now()): CachedSession | undefined {
    const entry = this.current(now) ? this.entries.get(sessionId) : undefined;
    if (entry) this.stats.hits += 1;
    else this.stats.misses += 1;
    return entry;
  }

  /** Call before reading a session from the database; pass the answer to `keep`. */
  startRead(): number {
    return this.tick;
  }

  /** Keeps what a read found, unless anything was dropped since it started. */
  keep(started: number, sessionId: string, entry: CachedSession): void {
    if (!this.current(Date.now()) || started !== this.tick) return;
    if (entry.user) Object.freeze(entry.user);
    this.entries.set(sessionId, entry);
    const userId = entry.session.userId;
    if (userId !== null) {
      let ids = this.byUser.get(userId);
      if (!ids) this.byUser.set(userId, (ids = new Set()));
      ids.add(sessionId);
    }
    this.stats.kept += 1;
  }

  forgetSession(sessionId: string): void {
    this.tick += 1;
    this.entries.delete(sessionId);
  }

  forgetUser(userId: string): void {
    this.tick += 1;
    for (const sessionId of [...(this.byUser.get(userId) ?? [])]) this.entries.delete(sessionId);
  }

  forgetAll(): void {
    this.tick += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private unindex(entry: CachedSession, sessionId: string) {
    const userId = entry.session.userId;
    if (userId === null) return;
    const ids = this.byUser.get(userId);
    ids?.delete(sessionId);
    if (ids && ids.size === 0) this.byUser.delete(userId);
  }
}

/** The cache of each SQLite database the process opened (connection.ts), by its Kysely handle. */
const caches = new WeakMap<Db, SessionCache>();

export function registerSessionCache(db: Db, cache: SessionCache): void {
  caches.set(db, cache);
}

/** The cache of `db`: undefined inside a transaction (its own handle). */
export function sessionCacheOf(db: Db): SessionCache | undefined {
  return caches.get(db);
}

/** What a write statement may change in the cache: found once per SQL text. */
type WriteScope =
  | { kind: 'none' }
  | { kind: 'all' }
  /** One row of `table`, whose id is the statement's parameter at `param` (-1: the last). */
  | { kind: 'row'; table: 'users' | 'sessions'; param: number };

/** Either table named anywhere, quoted or not (hand-written SQL), in any case: over-broad is safe. */
const MENTIONS = /\b(users|sessions)\b/i;
/**
 * `update "users" set … where "id" = ?` or `delete from "sessions" where "id" = ?`, nothing else
 * (PostgreSQL's placeholders are numbered: `$2`).
 */
const BY_ID =
  /^(?:update "(users|sessions)" set .* |delete from "(users|sessions)" )where "id" = (?:\?|\$(\d+))(?: returning [^?$]*)?$/s;
/** setSession: `insert into "sessions" ("id", …) values (?, …) [on conflict …]`, one row. */
const ONE_SESSION =
  /^insert into "sessions" \("id", [^)]*\) values \((?:\?|\$1), [^()]*\)(?: on conflict|$)/s;

/**
 * The tables a statement's data-modifying parts write: `insert into "t"`, `update "t"`, …, with or
 * without quotes or a schema (`"public"."t"`).
 */
const WRITTEN =
  /\b(?:insert\s+into|update|delete\s+from|merge\s+into)\s+(?:"?\w+"?\s*\.\s*)?"?(\w+)"?/gi;

export function writeScope(sql: string, readonly: boolean): WriteScope {
  if (readonly || !MENTIONS.test(sql)) return { kind: 'none' };
  // A statement with a `with`, whose reads may name the people (sendTargetAndInsert reads `users`
  // and inserts a ping): it can hold only reads and data-modifying parts, so what it may change
  // is the tables those name (`on conflict do update set` names "set": no table of ours).
  if (/^\s*with\b/i.test(sql)) {
    const written = [...sql.matchAll(WRITTEN)].map((m) => m[1]!.toLowerCase());
    if (!written.some((t) => t === 'users' || t === 'sessions')) return { kind: 'none' };
    return { kind: 'all' };
  }
  const byId = BY_ID.exec(sql);
  // Only the outer WHERE may hold `where "id" = ?`: a second WHERE (a subquery) makes it broad.
  if (byId && sql.indexOf(' where ') === sql.lastIndexOf(' where ')) {
    const table = (byId[1] ?? byId[2]) as 'users' | 'sessions';
    return { kind: 'row', table, param: byId[3] ? Number(byId[3]) - 1 : -1 };
  }
  if (ONE_SESSION.test(sql)) return { kind: 'row', table: 'sessions', param: 0 };
  return { kind: 'all' };
}

/**
 * The statement to hand to Kysely: `stmt` itself, or for a write to `users` or `sessions` a
 * wrapper that drops what the write may change before it runs.
 */
export function watchIdentityWrites(
  cache: SessionCache,
  scope: WriteScope,
  stmt: BetterSqlite3.Statement,
): SqliteStatement {
  if (scope.kind === 'none') return stmt;
  const forget = (params: ReadonlyArray<unknown>) => forgetWritten(cache, scope, params);
  return {
    reader: stmt.reader,
    all: (params) => {
      forget(params);
      return stmt.all(params);
    },
    run: (params) => {
      forget(params);
      return stmt.run(params);
    },
    iterate: (params) => {
      forget(params);
      return stmt.iterate(params);
    },
  };
}

/** Drops from `cache` what a statement of `scope` run with `params` may change. */
function forgetWritten(cache: SessionCache, scope: WriteScope, params: ReadonlyArray<unknown>) {
  if (scope.kind === 'none') return;
  const id = scope.kind === 'row' ? params.at(scope.param) : undefined;
  if (scope.kind === 'all' || typeof id !== 'string') cache.forgetAll();
  else if (scope.table === 'users') cache.forgetUser(id);
  else cache.forgetSession(id);
}

/** Query texts whose scope is remembered: every text of the server (postgres-statements.ts). */
const SCOPES_KEPT = 2000;

/**
 * PostgreSQL: when a connection of `pool` goes back to the pool, which is after its transaction
 * has ended, `cache` drops what the statements it ran that write `users` or `sessions` may have
 * changed. Until then the rows as they were are still what every other connection reads (the
 * write has not committed), so what was kept meanwhile was right; a read under way at that moment
 * is not kept (`tick`). The trigger's notice (realtime/bus.ts) drops it once more, but it may reach
 * this node after the write's answer has reached its client.
 */
export function watchPostgresIdentityWrites(pool: pg.Pool, cache: SessionCache): void {
  const scopes = new Map<string, WriteScope>();
  const scopeOf = (text: string) => {
    let scope = scopes.get(text);
    if (!scope) {
      scope = writeScope(text, /^\s*select\b/i.test(text));
      if (scopes.size < SCOPES_KEPT) scopes.set(text, scope);
    }
    return scope;
  };
  /** What each connection wrote since the pool lent it out. */
  const written = new WeakMap<pg.PoolClient, (() => void)[]>();
  pool.on('connect', (client) => {
    type Query = (...args: unknown[]) => unknown;
    const query = client.query.bind(client) as Query;
    (client as { query: Query }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text === 'string') {
        const scope = scopeOf(text);
        if (scope.kind !== 'none') {
          const forget = () =>
            forgetWritten(cache, scope, Array.isArray(values) ? (values as unknown[]) : []);
          let list = written.get(client);
          if (!list) written.set(client, (list = []));
          list.push(forget);
        }
      }
      return query(...args);
    };
  });
  pool.on('release', (_err: Error | undefined, client: pg.PoolClient) => {
    const list = written.get(client);
    if (!list) return;
    written.delete(client);
    for (const forget of list) forget();
  });
}
