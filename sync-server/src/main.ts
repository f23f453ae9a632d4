/** `npm start`: read the environment, migrate the SQLite file, serve API and PWA on one port. */
import { loadConfig } from './config';
import { startServer } from './server';

const config = loadConfig();
const running = await startServer(config);
console.log(
  `PingMe is running on ${config.publicUrl} (listening on ${config.host}:${running.port})`,
);
console.log(`Data directory: ${config.dataDir}`);
if (!config.smtpUrl) {
  console.log(
    'Mail is not configured (SMTP_URL): reset and verification links are printed here only (never answered over HTTP); pass them on to the person who asked.',
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
