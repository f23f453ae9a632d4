/**
 * SQLite's WAL checkpoints on a thread of their own (docs/performance.md, "Checkpoints off the
 * event loop"). By default the connection that commits copies the WAL into the database file
 * every 1,000 pages, inside that commit: with this server's one connection that is the event
 * loop, which then also waits for two fsyncs, and every request and /ws frame waits with it.
 *
 * Here a worker thread with its own connection to the file runs a PASSIVE checkpoint every
 * `everyMs`: it copies what no reader needs any more and never waits for, or blocks, the
 * server's connection. The WAL starts again from its beginning at a commit that finds it all
 * copied; under a steady stream of writes new pages arrive during each checkpoint, so that is
 * rare, and the server's connection keeps an automatic checkpoint at a larger size
 * (`FALLBACK_AUTOCHECKPOINT_PAGES`, a 160 MB WAL): it then copies only the last pages, and the
 * WAL starts again. It also bounds the WAL if the thread falls behind or dies. That checkpoint
 * still syncs both files on the event loop, a stall of every request, so it is kept rare: at
 * 40 MB the send rate was about a tenth lower (docs/performance.md, "The server's own checkpoint
 * made rarer"). Durability does not change: the thread's connection syncs as the server's did
 * (`synchronous = NORMAL`: the WAL before a checkpoint, the file after it).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { logger } from '../logger';

/** Pages of WAL (4 KB each) at which the server's own connection checkpoints after all. */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 40_000;
/** How often the thread checkpoints. */
export const CHECKPOINT_EVERY_MS = 100;

/** The thread's code (CommonJS, evaluated as is: it needs no build step). */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
let failed = false;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failed = false;
  } catch (err) {
    // Once per run of failures: the server's connection checkpoints meanwhile.
    if (!failed) parentPort.postMessage({ failed: String(err && err.message) });
    failed = true;
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.postMessage({ closed: true });
});
`;

export interface Checkpointer {
  /** Stops the thread and closes its connection (before the server's own last checkpoint). */
  stop(): Promise<void>;
}

/** Starts the thread for the SQLite file `file`, which `sqlite` (the server's connection) has open. */
export function startCheckpointer(
  sqlite: BetterSqlite3.Database,
  file: string,
  everyMs = CHECKPOINT_EVERY_MS,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs } });
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  let running = true;
  const fallBack = () => {
    // Without the thread the server's connection checkpoints as SQLite does by default.
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('message', (m: { failed?: string }) => {
    if (m.failed) logger.warn({ err: m.failed }, 'the checkpoint thread could not checkpoint');
  });
  worker.on('error', (err) => {
    logger.error({ err }, 'the checkpoint thread failed; checkpoints run on the server thread');
    running = false;
    fallBack();
  });
  worker.on('exit', () => {
    running = false;
  });
  return {
    async stop() {
      if (!running) return;
      const closed = new Promise<void>((resolve) => {
        worker.on('message', (m: { closed?: boolean }) => {
          if (m.closed) resolve();
        });
        worker.on('exit', () => resolve());
      });
      // Held open until it answers: a stopping process may have nothing else left to wait for.
      worker.ref();
      worker.postMessage('stop');
      await closed;
      running = false;
      await worker.terminate();
      fallBack();
    },
  };
}
