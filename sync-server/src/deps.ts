/** What the app, its routes and its background parts are built from (server.ts makes them). */
import type { Config } from './config';
import type { Db } from './db/connection';
import type { ChangeEvents } from './realtime/events';
import type { Metrics } from './metrics';
import type { WriteCoalescer } from './mutations/coalesce';
import type { Mailer } from './services/mail';

export interface AppDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  events: ChangeEvents;
  /** REST writes that arrive together share one commit (WRITE_COALESCING); else one each. */
  coalescer?: WriteCoalescer | undefined;
  /** Counted when given (server.ts gives it; /metrics needs it). */
  metrics?: Metrics;
  /** Read by /readyz (server.ts sets `draining` at shutdown). */
  lifecycle?: Lifecycle;
}

/** The server's state as /readyz reports it; server.ts sets `draining` at shutdown. */
export interface Lifecycle {
  draining: boolean;
}
