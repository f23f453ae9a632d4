/**
 * The PingMe sync server as the bench runs it: its own process (so its RSS and CPU profile are
 * its own), configured from the environment like `npm start`, announcing its port over IPC.
 * 'stop' closes it cleanly, so `--cpu-prof` can write its profile on exit.
 */
import { loadConfig } from '../../sync-server/src/config';
import { startServer } from '../../sync-server/src/server';

const config = loadConfig(process.env);
const running = await startServer(config);
process.send?.({ type: 'ready', port: running.port });
process.on('message', (m) => {
  if (m !== 'stop') return;
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
process.on('disconnect', () => process.exit(0));
