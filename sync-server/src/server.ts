/** Puts the app on a port: used by main.ts and by the tests (port 0). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import type { Config } from './config';
import { openDatabase, type OpenedDb } from './db/connection';
import { createMailer, type Mailer } from './services/mail';
import { ChangeEvents } from './realtime/events';
import { RealtimeHub } from './realtime/hub';
import { PushNotifier } from './push/notifier';
import { pruneChangeLog } from './sync/pull';
import { revokeUnprovenListedAdmins } from './db/users';
import { reencodeStoredPhotos } from './services/images';

/** How often old change-log rows are pruned (docs/sync.md, "Change log"). */
const PRUNE_EVERY_MS = 6 * 3600_000;

export interface RunningServer {
  url: string;
  port: number;
  http: http.Server;
  database: OpenedDb;
  config: Config;
  mailer: Mailer;
  events: ChangeEvents;
  hub: RealtimeHub;
  push: PushNotifier;
  close(): Promise<void>;
}

export async function startServer(
  config: Config,
  opts: { mailer?: Mailer } = {},
): Promise<RunningServer> {
  const database = await openDatabase(config.dbFile);
  for (const email of await revokeUnprovenListedAdmins(database.db, config.adminEmails)) {
    console.warn(
      `${email} is in ADMIN_EMAILS but was never verified: its admin rights are revoked until it is.`,
    );
  }
  const photos = await reencodeStoredPhotos(config.uploadsDir);
  if (photos.reencoded || photos.setAside) {
    console.log(
      `Stored photos re-encoded without metadata: ${photos.reencoded}; unreadable, no longer served: ${photos.setAside}`,
    );
  }
  const mailer = opts.mailer ?? createMailer(config);
  const events = new ChangeEvents();
  const app = createApp({ db: database.db, config, mailer, events });
  const server = http.createServer(app.callback());
  const hub = new RealtimeHub({ db: database.db, config, events });
  server.on('upgrade', hub.handleUpgrade);
  const push = new PushNotifier({ db: database.db, config, events });
  const prune = () =>
    pruneChangeLog(database.db, config.syncRetentionMs).catch((err: unknown) =>
      console.error('change-log pruning failed', err),
    );
  await prune();
  const pruneTimer = setInterval(() => void prune(), PRUNE_EVERY_MS);
  pruneTimer.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    http: server,
    database,
    config,
    mailer,
    events,
    hub,
    push,
    async close() {
      clearInterval(pruneTimer);
      await push.close();
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    },
  };
}
