/**
 * `npm run migrate-to-postgres -- [--from FILE] [postgres://…]`: moves a deployment that started
 * on one machine (SQLite) to PostgreSQL (docs/deploy.md, "Moving from SQLite"). Copies every
 * table of DATA_DIR's SQLite file (or FILE) into the PostgreSQL database given (or DATABASE_URL),
 * which must be empty, then compares each table's row count and a checksum of its rows on both
 * sides; one PostgreSQL transaction, so a failure leaves the target empty. Both are brought to
 * the newest migration first. The secrets of DATA_DIR/secrets.json (next to the file) go into the
 * database too, where the nodes read them: sessions stay signed in and push subscriptions keep
 * working. Stop the server first (or copy a backup: `npm run backup`), so no write lands in the
 * SQLite file after its copy.
 *
 * Exit codes: 0 copied and verified, 1 failed (target not empty, a difference, no source…),
 * 2 usage.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { databaseFile } from '../config';
import { openDatabase } from '../db/connection';
import { CopyMismatch, TargetNotEmpty, copySqliteToPostgres } from '../db/copy';
import { isPostgresUrl } from '../db/dialect';

const usage = () => `Usage: npm run migrate-to-postgres -- [--from FILE] [postgres://user@host/db]

Copies the SQLite database of DATA_DIR (${databaseFile()}), or FILE, into an empty
PostgreSQL database (the URL given, else DATABASE_URL), and checks every table.`;

class Failure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export function parseArgs(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): { from: string; to: string } {
  if (argv.includes('--help') || argv.includes('-h')) throw new Failure(usage(), 0);
  let from = databaseFile(env);
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--from') {
      const f = argv[++i];
      if (!f) throw new Failure(`--from needs a file\n\n${usage()}`, 2);
      from = path.resolve(env.INIT_CWD ?? process.cwd(), f);
    } else if (a.startsWith('-')) throw new Failure(`Unknown option: ${a}\n\n${usage()}`, 2);
    else rest.push(a);
  }
  if (rest.length > 1) throw new Failure(`Name one database only.\n\n${usage()}`, 2);
  const to = rest[0] ?? env.DATABASE_URL;
  if (!to)
    throw new Failure(`Name the PostgreSQL database (or set DATABASE_URL).\n\n${usage()}`, 2);
  if (!isPostgresUrl(to)) throw new Failure(`Not a postgres:// URL: ${to}\n\n${usage()}`, 2);
  return { from, to };
}

/** Answers the report's lines; throws a Failure with an exit code. */
export async function migrateToPostgres(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  log: (line: string) => void = console.log,
): Promise<void> {
  const { from, to } = parseArgs(argv, env);
  if (!existsSync(from)) {
    throw new Failure(`No SQLite database at ${from}: set DATA_DIR or pass --from FILE.`, 1);
  }
  const source = await openDatabase(from);
  let target;
  try {
    target = await openDatabase(to, { poolSize: 2 });
  } catch (err) {
    await source.close();
    throw new Failure(`Cannot open ${redact(to)}: ${(err as Error).message}`, 1);
  }
  try {
    log(`Copying ${from} into ${redact(to)}`);
    const secretsFile = path.join(path.dirname(from), 'secrets.json');
    const settings: Record<string, string> = {};
    if (existsSync(secretsFile)) {
      settings.secrets = JSON.stringify(JSON.parse(readFileSync(secretsFile, 'utf8')));
    }
    const reports = await copySqliteToPostgres(source.db, target.db, log, settings);
    if (settings.secrets) log(`The secrets of ${secretsFile} are in the database now.`);
    const rows = reports.reduce((n, r) => n + r.rows, 0);
    log(`Done: ${reports.length} tables, ${rows} rows, every count and checksum the same.`);
  } catch (err) {
    if (err instanceof TargetNotEmpty || err instanceof CopyMismatch)
      throw new Failure(err.message, 1);
    throw err;
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
}

/** The URL without its password, for the log. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the database';
  }
}

const isMain = process.argv[1] && /migrate-to-postgres\.[jt]s$/.test(process.argv[1]);
if (isMain) {
  migrateToPostgres(process.argv.slice(2)).then(
    () => process.exit(0),
    (err: unknown) => {
      if (err instanceof Failure) {
        (err.code === 0 ? console.log : console.error)(err.message);
        process.exit(err.code);
      }
      console.error(err);
      process.exit(1);
    },
  );
}
