/**
 * What the process does on SIGTERM (a platform stopping or moving it) and SIGINT (Ctrl-C): a
 * graceful stop (RunningServer.close), then exit 0. If the stop ever outlasts
 * SHUTDOWN_TIMEOUT_SECONDS (plus a second to log and flush), the process exits 1 regardless, so
 * a platform never has to escalate to SIGKILL. Used by main.ts and the tests' server child.
 */
import { logger } from './logger';
import type { RunningServer } from './server';

export function stopOnSignals(running: RunningServer): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, sockets: running.hub.size }, 'stopping');
    const started = performance.now();
    setTimeout(() => {
      logger.error('the graceful stop took too long: exiting now');
      process.exit(1);
    }, running.config.shutdownTimeoutMs + 1000).unref();
    running.close().then(
      () => {
        logger.info({ ms: Math.round(performance.now() - started) }, 'stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
