/**
 * Sessions and their people kept in memory between requests, on SQLite only
 * (docs/performance.md, "Sessions kept in memory"). Every signed-in request reads its session and
 * its person; read from the file each time, that was about a quarter of a ping send's CPU: two
 * statements, each outside a transaction (so each takes and drops its own read lock on the WAL),
 * through Kysely and its plugins.
 *
 * An entry stays exactly as long as the rows it copies are unchanged:
 * - every statement of this connection that writes `users` or `sessions` passes through
 *   `watchIdentityWrites` (connection.ts prepares every statement there) and, before it runs,
 *   drops what it may change: the one person or session a statement keyed by `id` writes, or
 *   everything for any other write to those tables (a sign-up, every session of a person, a
 *   migration, a test's own update);
 * - another connection's commit (a second process such as `npm run make-admin`, or another handle
 *   on the same file) changes SQLite's `PRAGMA data_version`, which a lookup reads when it was last
 *   read more than OTHER_WRITERS_EVERY_MS ago: everything is dropped. (Read on every lookup, the
 *   pragma alone cost 10 µs, near half of the two reads it replaces: like any statement outside
 *   a transaction it takes and drops a read lock on the WAL.) Another process's change to a person
 *   or a session is seen that much later at the most;
 * - a read that was under way while anything was dropped is not kept (`tick`).
 *
 * PostgreSQL has no cache: other nodes write the same rows, and only a read sees their commits.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';
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

export class SessionCache {
  private readonly entries: LRUCache<string, CachedSession>;
  /** Cached session ids per person, to drop a person's sessions when their row changes. */
  private readonly byUser = new Map<string, Set<string>>();
  /** Counts the drops: a read that started before one must not be kept. */
  private tick = 0;
  private lastVersion: unknown;
  private lastVersionCheck = 0;
  private readonly dataVersion: BetterSqlite3.Statement<[], number>;
  /** Lookups answered from memory, and reads kept (tests, experiments). */
  readonly stats = { hits: 0, misses: 0, kept: 0 };

  constructor(sqlite: BetterSqlite3.Database, max = SESSION_CACHE_SIZE) {
    this.dataVersion = sqlite.prepare<[], number>('PRAGMA data_version').pluck();
    this.lastVersion = this.dataVersion.get();
    this.entries = new LRUCache({
      max,
      dispose: (entry, sessionId) => this.unindex(entry, sessionId),
    });
  }

  /**
   * The cached session, unless another connection has committed since it was cached (checked at
   * most every OTHER_WRITERS_EVERY_MS).
   */
  get(sessionId: string, now = Date.now()): CachedSession | undefined {
    if (now - this.lastVersionCheck >= OTHER_WRITERS_EVERY_MS) {
      this.lastVersionCheck = now;
      const version = this.dataVersion.get();
      if (version !== this.lastVersion) {
        this.lastVersion = version;
        this.forgetAll();
      }
    }
    const entry = this.entries.get(sessionId);
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
    if (started !== this.tick) return;
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

/** The cache of `db`: undefined on PostgreSQL and inside a transaction (its own handle). */
export function sessionCacheOf(db: Db): SessionCache | undefined {
  return caches.get(db);
}

/** What a write statement may change in the cache: found once per SQL text. */
type WriteScope =
  | { kind: 'none' }
  | { kind: 'all' }
  /** One row of `table`, whose id is the statement's parameter at `param` (-1: the last). */
  | { kind: 'row'; table: 'users' | 'sessions'; param: 0 | -1 };

/** Either table named anywhere, quoted or not (hand-written SQL), in any case: over-broad is safe. */
const MENTIONS = /\b(users|sessions)\b/i;
/** `update "users" set … where "id" = ?` or `delete from "sessions" where "id" = ?`, nothing else. */
const BY_ID =
  /^(?:update "(users|sessions)" set .* |delete from "(users|sessions)" )where "id" = \?(?: returning [^?]*)?$/s;
/** setSession: `insert into "sessions" ("id", …) values (?, …) [on conflict …]`, one row. */
const ONE_SESSION =
  /^insert into "sessions" \("id", [^)]*\) values \(\?, [^()]*\)(?: on conflict|$)/s;

export function writeScope(sql: string, readonly: boolean): WriteScope {
  if (readonly || !MENTIONS.test(sql)) return { kind: 'none' };
  const byId = BY_ID.exec(sql);
  // Only the outer WHERE may hold `where "id" = ?`: a second WHERE (a subquery) makes it broad.
  if (byId && sql.indexOf(' where ') === sql.lastIndexOf(' where ')) {
    return { kind: 'row', table: (byId[1] ?? byId[2]) as 'users' | 'sessions', param: -1 };
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
  const forget = (params: ReadonlyArray<unknown>) => {
    const id = scope.kind === 'row' ? params.at(scope.param) : undefined;
    if (scope.kind === 'all' || typeof id !== 'string') cache.forgetAll();
    else if (scope.table === 'users') cache.forgetUser(id);
    else cache.forgetSession(id);
  };
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
