/**
 * `npm run backup -- FILE [--force]`: a consistent copy of DATA_DIR's SQLite file, taken while
 * the server runs, with SQLite's online backup API (better-sqlite3's `db.backup()`) from this
 * separate process. WAL lets this process read beside the server without stopping its writes.
 *
 * The copy is taken in one backup step, so it is one snapshot (one read transaction): every
 * write committed before it began is in it, nothing half-written is. (In many small steps, a
 * write by the server between two of them would make SQLite start the copy over, again and
 * again under a steady stream of writes.) It is written beside FILE under a temporary name,
 * checked (`PRAGMA quick_check`) and only then renamed to FILE, so FILE is never half a copy.
 *
 * Exit codes: 0 copied, 1 failed (FILE exists without --force, no database…), 2 usage.
 * Restoring: README, "Backups".
 */
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { databaseFile } from '../config';

const USAGE = `Usage: npm run backup -- FILE [--force]

Copies the database of DATA_DIR (${databaseFile()}) to FILE while the server runs.
  --force   replace FILE if it exists`;

class Failure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

function parse(argv: string[]): { file: string; force: boolean } {
  if (argv.includes('--help') || argv.includes('-h')) throw new Failure(USAGE, 0);
  const unknown = argv.find((a) => a.startsWith('-') && a !== '--force');
  if (unknown) throw new Failure(`Unknown option: ${unknown}\n\n${USAGE}`, 2);
  const files = argv.filter((a) => !a.startsWith('-'));
  if (files.length !== 1) {
    throw new Failure(
      `${files.length === 0 ? 'Name the file to write.' : 'Name one file only.'}\n\n${USAGE}`,
      2,
    );
  }
  // Relative to where the person ran npm, not to the workspace npm switched to.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), files[0]!);
  return { file, force: argv.includes('--force') };
}

async function main(argv: string[]): Promise<string> {
  const { file, force } = parse(argv);
  const source = databaseFile();
  if (!existsSync(source)) {
    throw new Failure(`No database at ${source}: set DATA_DIR to the server's data directory.`, 1);
  }
  if (path.resolve(file) === path.resolve(source)) {
    throw new Failure('FILE is the database itself: name another file.', 1);
  }
  if (existsSync(file) && !force) {
    throw new Failure(`${file} exists: pass --force to replace it.`, 1);
  }
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new Failure(`${file} is a directory: name a file.`, 1);
  }
  const dir = path.dirname(file);
  if (!existsSync(dir)) throw new Failure(`The directory ${dir} does not exist.`, 1);

  const partial = path.join(dir, `.${path.basename(file)}.partial-${process.pid}`);
  const db = new BetterSqlite3(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const startedAt = new Date();
    const result = await db.backup(partial, {
      // Everything in the next step: one step, one snapshot (see the header).
      progress: () => 0x7fffffff,
    });
    // Not read-only: the copy is in WAL mode like its source, and a read-only WAL file without
    // its -shm cannot always be opened.
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Failure(`The copy failed its check: ${String(check)}`, 1);
    } finally {
      copy.close();
    }
    renameSync(partial, file);
    const mb = (statSync(file).size / 1024 / 1024).toFixed(1);
    return `Backed up ${source} to ${file}: ${result.totalPages} pages (${mb} MB), as of ${startedAt.toISOString()}.`;
  } finally {
    db.close();
    for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`]) {
      rmSync(leftover, { force: true });
    }
  }
}

main(process.argv.slice(2)).then(
  (message) => {
    console.log(message);
  },
  (err: unknown) => {
    if (err instanceof Failure) {
      (err.code === 0 ? console.log : console.error)(err.message);
      process.exitCode = err.code;
    } else {
      console.error(`Backup failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    }
  },
);
