/**
 * The real sync server in its own process, for tests that kill it: `start()` forks
 * test/server-child.ts (tsx as an --import loader, like bench/lib/children.ts) on a DATA_DIR,
 * `kill()` sends SIGKILL (no shutdown code runs: what is on disk is what a crash leaves), and
 * `start()` again brings it back on the same DATA_DIR, on the same port when it is still free
 * (else on a new one: read `url` after each start).
 *
 *   const server = new ServerProcess({ env: RELAXED_LIMITS });
 *   await server.start();             // server.url
 *   await server.kill();              // SIGKILL, resolves once the process is gone
 *   await server.signal('SIGTERM');   // {code, signal} once it has exited by itself
 *   await server.start();             // same data, same port
 *   await server.dispose();           // stops it and removes the temporary DATA_DIR
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(here, 'server-child.ts');
const START_TIMEOUT_MS = 90_000;

/** One line of the server's JSON log (src/logger.ts). */
export interface LogEntry {
  level: string;
  time: string;
  msg?: string;
  reqId?: string;
  [field: string]: unknown;
}

/** The JSON lines of a log; anything else (a partial last line, a crash's stack) is skipped. */
export function parseLogLines(log: string): LogEntry[] {
  const out: LogEntry[] = [];
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as LogEntry);
    } catch {
      // a line still being written
    }
  }
  return out;
}

export interface ServerProcessOptions {
  /** The server's DATA_DIR (SQLite file, secrets); default: a fresh temporary directory. */
  dataDir?: string;
  /** More environment for the child (settings, relaxed limits). */
  env?: Record<string, string>;
  /** Print the child's output (default: only its stderr; both are kept in `log`). */
  verbose?: boolean;
}

export class ServerProcess {
  readonly dataDir: string;
  private readonly ownsDir: boolean;
  private proc: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  /** The port of the last start; the next start asks for it again. */
  port = 0;
  /** How many times the child has started. */
  starts = 0;
  /** What the child printed (stdout and stderr as they came), over all its starts: the log. */
  log = '';
  /** How the child last exited. */
  lastExit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(private readonly opts: ServerProcessOptions = {}) {
    this.ownsDir = !opts.dataDir;
    this.dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'pingme-proc-'));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  get pid(): number | undefined {
    return this.running ? this.proc!.pid : undefined;
  }

  /** Starts the server (the same port as before when possible); resolves once it listens. */
  async start(): Promise<string> {
    if (this.running) throw new Error('the server is already running');
    const wanted = this.port;
    try {
      this.port = await this.fork(wanted);
    } catch (err) {
      // The old port was taken meanwhile by someone else: any free one will do.
      if (!wanted || !/EADDRINUSE|exited/.test(String(err))) throw err;
      this.port = await this.fork(0);
    }
    this.starts++;
    return this.url;
  }

  /** SIGKILL: the process ends at once, whatever it was doing. */
  async kill(): Promise<void> {
    if (!this.proc || !this.exited) return;
    if (this.running) this.proc.kill('SIGKILL');
    await this.exited;
    this.proc = undefined;
  }

  /**
   * Sends `sig` and resolves with how the process exited, however long that takes: the
   * graceful-stop tests want it to exit by itself (their own timeout is the bound).
   */
  async signal(
    sig: NodeJS.Signals,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (!this.proc || !this.exited || !this.running) throw new Error('the server is not running');
    this.proc.kill(sig);
    await this.exited;
    this.proc = undefined;
    return this.lastExit!;
  }

  /** A clean stop (the server closes its database), SIGKILL after 15 s. */
  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || !this.exited) return;
    if (this.running) {
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      proc.send('stop');
      await this.exited;
      clearTimeout(timer);
    }
    this.proc = undefined;
  }

  /** Kill, then start on the same data. */
  async restart(): Promise<string> {
    await this.kill();
    return this.start();
  }

  /** Stops the server and removes the DATA_DIR this harness made. */
  async dispose(): Promise<void> {
    await this.stop();
    if (this.ownsDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** The log's JSON lines (logger.ts), parsed; other lines (a crash's stack) are left out. */
  logEntries(): LogEntry[] {
    return parseLogLines(this.log);
  }

  /** The SQLite file the server writes. */
  get dbFile(): string {
    return path.join(this.dataDir, 'pingme.sqlite');
  }

  private keep(chunk: Buffer): void {
    // The newest megabyte is plenty for a test to read the log; a long bench stays small.
    this.log = (this.log + chunk.toString()).slice(-1_000_000);
  }

  private async fork(port: number): Promise<number> {
    const proc = fork(CHILD, [], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        PWA_DIST: path.join(this.dataDir, 'no-pwa'),
        ...this.opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    proc.stdout?.on('data', (chunk: Buffer) => {
      this.keep(chunk);
      if (this.opts.verbose) process.stdout.write(chunk);
    });
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      this.keep(chunk);
      if (this.opts.verbose) process.stderr.write(chunk);
    });
    this.proc = proc;
    this.exited = new Promise<void>((resolve) =>
      proc.once('exit', (code, signal) => {
        this.lastExit = { code, signal };
        resolve();
      }),
    );
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`the server did not start in ${START_TIMEOUT_MS / 1000} s\n${stderr}`));
      }, START_TIMEOUT_MS);
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${code ?? signal}) before it was ready\n${stderr}`));
      });
      proc.on('message', (m: { type?: string; port?: number }) => {
        if (m?.type === 'ready' && m.port) {
          clearTimeout(timer);
          resolve(m.port);
        }
      });
    });
  }
}
