/** Puts the app on a port: used by main.ts and by the tests (port 0). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import type { Lifecycle } from './deps';
import {
  databaseLocation,
  generateSecrets,
  withSecrets,
  type Config,
  type Secrets,
} from './config';
import { openDatabase, type OpenedDb } from './db/connection';
import { sharedSetting } from './db/settings';
import { sessionCacheOf } from './db/session-cache';
import { WriteCoalescer } from './mutations/coalesce';
import { revokeUnprovenListedAdmins } from './db/users';
import { logger, setLogLevel } from './logger';
import { Metrics, bearerMatches, queryKind } from './metrics';
import { PushNotifier } from './push/notifier';
import { ChangeEvents } from './realtime/events';
import { LocalBus, PostgresBus, type ChangeBus } from './realtime/bus';
import { RealtimeHub } from './realtime/hub';
import { ClusterRelay } from './realtime/relay';
import { runHousekeepingOnce } from './services/housekeeping';
import { reencodeStoredPhotos } from './services/images';
import { createMailer, type Mailer } from './services/mail';

export interface RunningServer {
  url: string;
  port: number;
  /** The port of METRICS_PORT's listener, when there is one. */
  metricsPort: number | undefined;
  http: http.Server;
  database: OpenedDb;
  config: Config;
  mailer: Mailer;
  events: ChangeEvents;
  coalescer: WriteCoalescer | undefined;
  hub: RealtimeHub;
  /** Between nodes (PostgreSQL: LISTEN/NOTIFY); in-process on SQLite. */
  bus: ChangeBus;
  /** Live delivery of other nodes' writes (PostgreSQL only). */
  relay: ClusterRelay | undefined;
  push: PushNotifier;
  /** What /metrics serves; requests and statements are recorded only when it can be read. */
  metrics: Metrics;
  lifecycle: Lifecycle;
  /**
   * Graceful stop (SIGTERM, tests): stop accepting, close /ws sockets with 1012, let requests in
   * flight finish, checkpoint the WAL and close the database, all within SHUTDOWN_TIMEOUT_SECONDS.
   */
  close(): Promise<void>;
}

export async function startServer(
  given: Config,
  opts: { mailer?: Mailer } = {},
): Promise<RunningServer> {
  setLogLevel(given.logLevel);
  const metrics = new Metrics();
  // Each request and each SQL statement is recorded only when /metrics can be read (METRICS_TOKEN
  // or METRICS_PORT): handing them to prom-client cost a REST send about 6 % of its CPU and GET
  // /api/user 15 %, side by side (docs/performance.md, "Metrics recorded only where they can be
  // read").
  const readable = given.metrics.token !== undefined || given.metrics.port !== undefined;
  const recorded = readable ? metrics : undefined;
  const database = await openDatabase(databaseLocation(given), {
    onQuery: recorded && ((kind, ms) => recorded.observeQuery(queryKind(kind), ms / 1000)),
    poolSize: given.databasePoolSize,
    checkpointThread: given.checkpointThread,
  });
  const config = await sharedSecretsOf(database, given);
  for (const email of await revokeUnprovenListedAdmins(database.db, config.adminEmails)) {
    logger.warn(
      { email },
      `${email} is in ADMIN_EMAILS but was never verified: its admin rights are revoked until it is.`,
    );
  }
  const photos = await reencodeStoredPhotos(config.uploadsDir);
  if (photos.reencoded || photos.setAside) {
    logger.info(photos, 'stored photos re-encoded without metadata (unreadable ones set aside)');
  }
  const mailer = opts.mailer ?? createMailer(config);
  const events = new ChangeEvents();
  const bus = await changeBus(database);
  const sessions = sessionCacheOf(database.db);
  if (sessions) {
    metrics.watchSessionsWith(() => ({ ...sessions.stats, inUse: sessions.inUse() }));
  }
  // A write's hints commit with it: the other nodes hear of exactly the writes that stood.
  events.addBeforeCommit(async (trx, _sets, newest) => {
    if (newest.size) await bus.publishInTransaction(trx, newest);
  });
  const coalescer = config.writeCoalescing
    ? new WriteCoalescer(
        database.db,
        events,
        // SQLite has one connection and one writer: one group at a time.
        database.dialect === 'postgres' ? config.databaseWriteTransactions : 1,
      )
    : undefined;
  if (coalescer) {
    metrics.watchWritesWith(() => ({
      ...coalescer.stats,
      running: coalescer.running,
      max: coalescer.maxLanes,
    }));
  }
  const lifecycle: Lifecycle = { draining: false };
  const app = createApp({
    db: database.db,
    config,
    mailer,
    events,
    coalescer,
    metrics: recorded,
    lifecycle,
  });
  const server = http.createServer(app.callback());
  const hub = new RealtimeHub({ db: database.db, config, events });
  metrics.countSocketsWith(() => hub.size);
  server.on('upgrade', hub.handleUpgrade);
  const push = new PushNotifier({ db: database.db, config, events, metrics: recorded });
  await push.start();
  // Who has a push subscription, told to the other nodes (each keeps it in memory).
  events.on('subscriptionsChanged', (added, others) => {
    const userIds = [...new Set([...added, ...others])];
    bus
      .publish(userIds.map((userId) => ({ kind: 'subscriptions', userId })))
      .catch((err: unknown) => logger.warn({ err }, 'change bus: publish failed'));
  });
  bus.onHints((hints) => {
    const ids = hints.flatMap((h) => (h.kind === 'subscriptions' ? [h.userId] : []));
    if (ids.length) push.recheckAll(ids);
  });
  const relay =
    database.dialect === 'postgres'
      ? new ClusterRelay({ db: database.db, hub, events, bus, config })
      : undefined;
  relay?.start();
  const housekeeping = () =>
    runHousekeepingOnce(database.db, config).then(
      (removed) =>
        logger.debug({ removed }, removed ? 'housekeeping' : 'housekeeping: another node ran it'),
      (err: unknown) => logger.error({ err }, 'housekeeping failed'),
    );
  await housekeeping();
  const housekeepingTimer = setInterval(() => void housekeeping(), config.housekeepingEveryMs);
  housekeepingTimer.unref();
  await listen(server, config.port, config.host);
  const port = (server.address() as AddressInfo).port;
  const metricsServer =
    config.metrics.port === undefined ? undefined : metricsListener(config, metrics);
  if (metricsServer) await listen(metricsServer, config.metrics.port!, config.metrics.host);
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    metricsPort: metricsServer ? (metricsServer.address() as AddressInfo).port : undefined,
    http: server,
    database,
    config,
    mailer,
    events,
    coalescer,
    hub,
    bus,
    relay,
    push,
    metrics,
    lifecycle,
    async close() {
      const budget = config.shutdownTimeoutMs;
      lifecycle.draining = true;
      clearInterval(housekeepingTimer);
      // 1. No new connections; idle kept-alive ones go now, busy ones after their answer.
      const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      // 2. Every /ws socket is told 1012 at once and gets half the budget for its handshake.
      const socketsClosed = hub.close(budget / 2);
      // 3. Requests in flight get most of the budget; whatever is left then is cut.
      await Promise.race([httpClosed, delay(budget * 0.7)]);
      clearInterval(sweep);
      server.closeAllConnections();
      await Promise.all([httpClosed, socketsClosed]);
      // 4. Pushes: a delivery under way is aborted; jobs not started are given back for another
      //    node (or the next start) to send.
      await push.close();
      relay?.stop();
      await bus.close();
      if (metricsServer) {
        metricsServer.closeAllConnections();
        await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
      }
      // 5. The WAL into the main file, then the file closed.
      await database.close();
    },
  };
}

/** PostgreSQL: LISTEN/NOTIFY on a connection of its own; SQLite: the process alone. */
async function changeBus(database: OpenedDb): Promise<ChangeBus> {
  if (database.dialect !== 'postgres') return new LocalBus();
  const bus = new PostgresBus(database.location, database.db);
  await bus.start();
  // Sessions kept in memory: the bus hears every node's writes to them (db/session-cache.ts).
  const sessions = sessionCacheOf(database.db);
  if (sessions) bus.attachSessionCache(sessions);
  return bus;
}

/** Several nodes: the secrets the environment does not set are the database's (config.ts). */
async function sharedSecretsOf(database: OpenedDb, config: Config): Promise<Config> {
  const { session, vapid } = config.sharedSecrets;
  if (!session && !vapid) return config;
  const stored = await sharedSetting(database.db, 'secrets', () =>
    JSON.stringify(generateSecrets()),
  );
  return withSecrets(config, JSON.parse(stored) as Secrets);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * METRICS_PORT: /metrics alone on a port of its own (METRICS_HOST, loopback by default), for a
 * scraper on a private network; METRICS_TOKEN, when set, is required here too.
 */
function metricsListener(config: Config, metrics: Metrics): http.Server {
  return http.createServer((req, res) => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return answer(404, { error: `No such route: ${req.method} ${path}`, code: 'not_found' });
    }
    const { token } = config.metrics;
    if (token && !bearerMatches(req.headers.authorization, token)) {
      return answer(
        401,
        { error: 'Unauthorized: send the metrics token as a Bearer token', code: 'unauthorized' },
        { 'www-authenticate': 'Bearer realm="metrics"' },
      );
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        logger.error({ err }, 'metrics failed');
        answer(500, { error: 'Something went wrong on our side.', code: 'internal' });
      },
    );
  });
}
