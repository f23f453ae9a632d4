/**
 * The server's log: one JSON object per line on stdout (pino), quiet by default. At `info`
 * (LOG_LEVEL's default) it says only what an operator needs: start and stop, warnings, errors,
 * and the messages the server could not mail (reset and verification links without SMTP_URL).
 * Requests are logged one line each with LOG_REQUESTS=true, or at `debug`.
 *
 * One logger for the process: the server is one process, and a module-level logger keeps the
 * many places that log free of plumbing. A request's lines carry its id (`reqId`, the
 * X-Request-Id answered to the client) through `ctx.log` (middleware/request-context.ts).
 */
import pino, { type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const logger: Logger = pino(
  {
    level: 'info',
    // Level names, not numbers, and ISO times: readable by a person as well as by a log shipper.
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    base: { pid: process.pid },
  },
  // Written at once, in order: the lines of a stop (and of a crash) are there when the process
  // exits. The default level logs little, so the synchronous write costs next to nothing.
  pino.destination({ dest: 1, sync: true }),
);

export function setLogLevel(level: LogLevel): void {
  logger.level = level;
}
