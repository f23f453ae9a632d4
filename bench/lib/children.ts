/**
 * Child processes: the PingMe server and the bare Koa reference each run in their own Node
 * process (tsx as an --import loader, so the pid is the server's own and /proc/<pid>/status
 * reports its own RSS). Optionally with --cpu-prof. The server's entry is the one the crash tests
 * fork (sync-server/test/server-child.ts: configured from the environment like `npm start`, its
 * port announced over IPC, 'stop' closes it cleanly so `--cpu-prof` can write its profile).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface Child {
  name: string;
  pid: number;
  port: number;
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/**
 * V8's flags of `npm run serve` (the root package.json), so the bench's server runs with the heap
 * settings production does (docs/performance.md, "Memory").
 */
const SERVE_FLAGS = (() => {
  const pkg = JSON.parse(readFileSync(path.join(here, '..', '..', 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return pkg.scripts.serve!.split(/\s+/).filter((f) => f.startsWith('--max-'));
})();

const SCRIPTS = {
  server: path.join(here, '..', '..', 'sync-server', 'test', 'server-child.ts'),
  bare: path.join(here, '..', 'children', 'bare.ts'),
} as const;

export interface ChildOptions {
  cpuProfDir?: string;
  /**
   * Drop the child's stdout (its stderr still shows): without SMTP_URL the server prints every
   * verification mail, which would bury a bench's table.
   */
  quiet?: boolean;
}

export async function startChild(
  name: keyof typeof SCRIPTS,
  env: Record<string, string>,
  opts: ChildOptions = {},
): Promise<Child> {
  const script = SCRIPTS[name];
  const execArgv = ['--import', 'tsx', ...(name === 'server' ? SERVE_FLAGS : [])];
  if (opts.cpuProfDir) {
    // One file per thread (tsx's loader hooks have their own): the largest is the main thread.
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`);
  }
  const proc = fork(script, [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', opts.quiet ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 60 s`)), 60_000);
    proc.once('exit', (code) =>
      reject(new Error(`${name} exited with ${code} before it was ready`)),
    );
    proc.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type === 'ready' && m.port) {
        clearTimeout(timer);
        resolve(m.port);
      }
    });
  });
  return {
    name,
    pid: proc.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    proc,
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

/**
 * The environment a bench's server child runs with (read like `npm start`): any free port on
 * loopback, `dataDir` for its SQLite file and secrets, the PWA build at `pwaDist` (by default a
 * directory that does not exist: no PWA), no request log.
 */
export function serverEnv(
  dataDir: string,
  pwaDist = path.join(dataDir, 'no-pwa'),
): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PWA_DIST: pwaDist,
    LOG_REQUESTS: 'false',
  };
}

/** Resident set size of a process in MB, from /proc/<pid>/status (VmRSS). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** The 1-minute load average and the number of CPUs, to say how quiet the machine was. */
export function loadAverage(): number {
  const [one] = readFileSync('/proc/loadavg', 'utf8').split(' ');
  return Number(one);
}

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

/** Every living descendant of a process (children, their children, …), from /proc. */
export function descendantsOf(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // It exited meanwhile.
    }
  }
  const found: number[] = [];
  const wanted = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (wanted.has(ppid) && !wanted.has(pid)) {
        wanted.add(pid);
        found.push(pid);
        grew = true;
      }
    }
  }
  return found;
}

/** CPU time the given processes used from now until the returned function is called, in ms. */
export function cpuMeter(pids: () => number[]): () => number {
  const read = () => {
    const used = new Map<number, number>();
    for (const pid of pids()) {
      try {
        used.set(pid, cpuMs(pid));
      } catch {
        // It exited meanwhile.
      }
    }
    return used;
  };
  const start = read();
  return () => {
    let total = 0;
    for (const [pid, ms] of read()) total += ms - (start.get(pid) ?? 0);
    return total;
  };
}

/** Busy CPU time of the whole machine so far (all CPUs, user + system + irq), in ms. */
export function machineBusyMs(): number {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const t = cpu!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const busy = t[0]! + t[1]! + t[2]! + t[5]! + t[6]! + t[7]!;
  return (busy * 1000) / CLOCK_TICKS;
}

/**
 * How busy the rest of the machine was: starts a meter over the given processes (the bench's
 * own: this one and its children); `stop()` answers the average number of CPUs that every
 * other process kept busy meanwhile (other engineers' tests, builds).
 */
export function otherLoadMeter(pids: () => number[]): () => number {
  const own = () => pids().reduce((sum, pid) => sum + cpuMs(pid), 0);
  const t0 = performance.now();
  const busy0 = machineBusyMs();
  const own0 = own();
  return () => {
    const wall = performance.now() - t0;
    const others = machineBusyMs() - busy0 - (own() - own0);
    return Math.max(0, others / wall);
  };
}
