/** `npm start`: read the environment, migrate the SQLite file, serve API and PWA on one port. */
import { loadConfig } from './config';
import { logger } from './logger';
import { startServer } from './server';
import { stopOnSignals } from './shutdown';

const config = loadConfig();
const running = await startServer(config);
logger.info(
  {
    publicUrl: config.publicUrl,
    host: config.host,
    port: running.port,
    metricsPort: running.metricsPort,
    dataDir: config.dataDir,
  },
  `PingMe is running on ${config.publicUrl}`,
);
if (!config.smtpUrl) {
  logger.warn(
    'Mail is not configured (SMTP_URL): reset and verification links are printed here only (never answered over HTTP); pass them on to the person who asked.',
  );
}
stopOnSignals(running);
