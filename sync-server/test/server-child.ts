/**
 * The sync server as a child process of a test (test/server-process.ts) or of a bench
 * (bench/lib/children.ts): configured from the environment exactly like `npm start` (src/main.ts),
 * announcing its port over IPC once it listens. 'stop' closes it cleanly (so a bench's
 * `--cpu-prof` can write its profile on exit); the tests that matter kill it with SIGKILL instead.
 */
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { stopOnSignals } from '../src/shutdown';

const config = loadConfig(process.env);
const running = await startServer(config);
// SIGTERM and SIGINT stop it as they stop `npm start`'s server (test/shutdown.test.ts).
stopOnSignals(running);
process.send?.({ type: 'ready', port: running.port });
process.on('message', (m) => {
  if (m !== 'stop') return;
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
// The test runner or bench went away without stopping us: do not outlive it.
process.on('disconnect', () => process.exit(0));
