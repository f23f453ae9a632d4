/**
 * Prometheus metrics (prom-client), one registry per running server so tests can run several
 * servers in one process. Labels are always from small fixed sets: the router's route pattern
 * (`/api/pings/:id/read`, never the path with its ids), the method, the status, an outcome.
 * Served at /metrics only when configured (middleware/ops.ts, README "Operations").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: from a cached read (under a millisecond) to a slow export. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: most queries of this server take microseconds. */
const DB_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2];
/** Outbox entries per batch (the PWA sends at most 100 per batch). */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/** What became of one Web Push (push/notifier.ts). */
export type PushOutcome =
  /** The push service took it (2xx). */
  | 'sent'
  /** 404/410: the subscription is gone and was deleted. */
  | 'gone'
  /** Any other status from the push service. */
  | 'refused'
  /** No answer (network error, timeout). */
  | 'failed'
  /** Keys the push could not be encrypted for: the subscription was deleted. */
  | 'invalid_subscription'
  /** The receiver's quiet hours: held, nothing sent. */
  | 'quiet_hours'
  /** The queue was full: the oldest waiting push was dropped. */
  | 'dropped';

/** What the sessions kept in memory report (db/session-cache.ts). */
export interface SessionCacheFigures {
  hits: number;
  misses: number;
  /** Whether what is kept may be used now (PostgreSQL: the bus hears the other nodes). */
  inUse: boolean;
}

/** What group commit reports (mutations/coalesce.ts). */
export interface WriteGroupFigures {
  /** Groups committed, and the writes they held, since start. */
  groups: number;
  writes: number;
  /** Groups under way now, and how many may be (DATABASE_WRITE_TRANSACTIONS; SQLite: 1). */
  running: number;
  max: number;
}

export class Metrics {
  readonly registry = new Registry();
  private openSockets: () => number = () => 0;
  private sessionFigures: () => SessionCacheFigures = () => ({ hits: 0, misses: 0, inUse: false });
  private writeFigures: () => WriteGroupFigures = () => ({
    groups: 0,
    writes: 0,
    running: 0,
    max: 0,
  });

  readonly httpRequests = new Counter({
    name: 'pingme_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'pingme_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  readonly wsSockets: Gauge;
  readonly batchEntries = new Histogram({
    name: 'pingme_sync_batch_entries',
    help: 'Outbox entries per POST /api/sync/batch',
    buckets: BATCH_BUCKETS,
    registers: [this.registry],
  });
  readonly pushResults = new Counter({
    name: 'pingme_push_results_total',
    help: 'Web Push deliveries by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly dbQueryDuration = new Histogram({
    name: 'pingme_db_query_duration_seconds',
    help: 'Time of each SQL statement, by kind (select, insert, update, delete, other)',
    labelNames: ['kind'] as const,
    buckets: DB_BUCKETS,
    registers: [this.registry],
  });

  constructor() {
    const sockets = () => this.openSockets();
    this.wsSockets = new Gauge({
      name: 'pingme_ws_sockets_open',
      help: 'Open /ws sockets',
      registers: [this.registry],
      collect() {
        this.set(sockets());
      },
    });
    const figures = () => this.sessionFigures();
    new Counter({
      name: 'pingme_session_cache_lookups_total',
      help: 'Signed-in lookups, answered from the sessions kept in memory (hit) or read from the database (miss)',
      labelNames: ['result'] as const,
      registers: [this.registry],
      collect() {
        // The cache counts; a scrape copies its totals.
        const f = figures();
        this.reset();
        this.inc({ result: 'hit' }, f.hits);
        this.inc({ result: 'miss' }, f.misses);
      },
    });
    new Gauge({
      name: 'pingme_session_cache_in_use',
      help: '1 while sessions kept in memory are used; 0 while they cannot be (PostgreSQL: the change bus is down or its heartbeat silent, so every request reads the database)',
      registers: [this.registry],
      collect() {
        this.set(figures().inUse ? 1 : 0);
      },
    });
    const writes = () => this.writeFigures();
    new Counter({
      name: 'pingme_write_groups_total',
      help: 'Groups of writes committed together (group commit)',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(writes().groups);
      },
    });
    new Counter({
      name: 'pingme_write_group_writes_total',
      help: 'Writes (REST calls and batch entries) applied in those groups',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(writes().writes);
      },
    });
    new Gauge({
      name: 'pingme_write_groups_running',
      help: 'Groups of writes under way now; at pingme_write_groups_max most of the time, writes wait for a free one',
      registers: [this.registry],
      collect() {
        this.set(writes().running);
      },
    });
    new Gauge({
      name: 'pingme_write_groups_max',
      help: 'Groups of writes a node may run at once (DATABASE_WRITE_TRANSACTIONS on PostgreSQL; 1 on SQLite)',
      registers: [this.registry],
      collect() {
        this.set(writes().max);
      },
    });
    // Process CPU, memory, event-loop lag, file descriptors, GC.
    collectDefaultMetrics({ register: this.registry });
  }

  /** Where the open-socket gauge reads its value (the /ws hub). */
  countSocketsWith(count: () => number): void {
    this.openSockets = count;
  }

  /** Where the group-commit figures come from. */
  watchWritesWith(read: () => WriteGroupFigures): void {
    this.writeFigures = read;
  }

  /** Where the session-cache figures come from. */
  watchSessionsWith(read: () => SessionCacheFigures): void {
    this.sessionFigures = read;
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /** Statements other than SELECT run so far (tests: whether anything may have been written). */
  writeStatements = 0;

  /** Each kind's series, looked up once (every statement of every request records itself). */
  private readonly queryTimers = new Map<string, { observe(seconds: number): void }>();

  observeQuery(kind: string, seconds: number): void {
    let timer = this.queryTimers.get(kind);
    if (!timer) {
      timer = this.dbQueryDuration.labels({ kind });
      this.queryTimers.set(kind, timer);
    }
    timer.observe(seconds);
    if (kind !== 'select') this.writeStatements += 1;
  }

  push(outcome: PushOutcome): void {
    this.pushResults.inc({ outcome });
  }
}

/** `SelectQueryNode` → `select`; raw SQL and anything else → `other`. */
export function queryKind(nodeKind: string): string {
  return QUERY_KINDS.get(nodeKind) ?? 'other';
}
const QUERY_KINDS = new Map([
  ['SelectQueryNode', 'select'],
  ['InsertQueryNode', 'insert'],
  ['UpdateQueryNode', 'update'],
  ['DeleteQueryNode', 'delete'],
]);

/** Who may read /metrics: `Authorization: Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!), digest(token));
}
