/**
 * One throw-away PostgreSQL for a whole `npm test` (scripts/test.mjs starts this and passes the
 * URL it prints on to every test project as PINGME_TEST_POSTGRES_URL). Prints `url=<admin URL>`
 * once the server accepts connections; stops and removes it on SIGTERM, SIGINT, or when its
 * standard input closes (the parent went away).
 */
import { startPostgresCluster } from './postgres';

const cluster = await startPostgresCluster();
process.stdout.write(`url=${cluster.url}\n`);
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  cluster.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
