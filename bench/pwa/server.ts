/**
 * The real sync server for the PWA benches, in its own process (bench/children/server.ts, as
 * `npm run bench` runs it) but with its stdout dropped: without SMTP_URL the server prints every
 * verification mail, which would bury the bench's table. Its stderr still shows.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface QuietServer {
  pid: number;
  url: string;
  stop(): Promise<void>;
}

export async function startQuietServer(env: Record<string, string>): Promise<QuietServer> {
  const proc = fork(path.join(here, '..', 'children', 'server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start in 60 s')), 60_000);
    proc.once('exit', (code) => reject(new Error(`the server exited with ${code} at start`)));
    proc.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type === 'ready' && m.port) {
        clearTimeout(timer);
        resolve(m.port);
      }
    });
  });
  return {
    pid: proc.pid!,
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        proc.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        proc.send('stop');
      }),
  };
}
