/**
 * Copying a whole SQLite database into PostgreSQL (`npm run migrate-to-postgres`,
 * scripts/migrate-to-postgres.ts): both at the newest migration, the target empty, every table
 * copied in the order of its foreign keys in one PostgreSQL transaction, then each table's row
 * count and a checksum of its rows compared on both sides before that transaction commits. A
 * difference rolls everything back: the target is either a faithful copy or still empty.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './connection';

/** Tables written by the migrations themselves (seeded rows), and what marks a seeded row. */
const SEEDED: Record<string, string> = { prompts: 'owner_id', packs: 'owner_id' };

export interface TableReport {
  table: string;
  rows: number;
  checksum: string;
  ok: boolean;
}

/** The source's tables, each after the tables its foreign keys name. */
async function tablesInOrder(sqlite: Db): Promise<string[]> {
  const raw = sqlite.withoutPlugins();
  const names = (
    await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name`.execute(
      raw,
    )
  ).rows.map((r) => r.name);
  const deps = new Map<string, string[]>();
  for (const name of names) {
    const fks = await sql<{
      table: string;
    }>`select "table" from pragma_foreign_key_list(${name})`.execute(raw);
    deps.set(
      name,
      fks.rows.map((r) => r.table).filter((t) => t !== name && names.includes(t)),
    );
  }
  const out: string[] = [];
  const visit = (t: string, path: string[]) => {
    if (out.includes(t)) return;
    if (path.includes(t)) throw new Error(`foreign keys form a cycle: ${[...path, t].join(' → ')}`);
    for (const d of deps.get(t) ?? []) visit(d, [...path, t]);
    out.push(t);
  };
  for (const t of names) visit(t, []);
  return out;
}

/** The columns of a table's primary key, in order (every column when it has none). */
async function keyColumns(sqlite: Db, table: string): Promise<string[]> {
  const cols = (
    await sql<{
      name: string;
      pk: number;
    }>`select name, pk from pragma_table_info(${table})`.execute(sqlite.withoutPlugins())
  ).rows;
  const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  return (pk.length ? pk : cols).map((c) => c.name);
}

/** Rows of `table`, ordered by its key (byte order on both engines: text columns are "C"). */
async function rowsOf(db: Db, table: string, key: string[]): Promise<Record<string, unknown>[]> {
  const order = sql.join(key.map((k) => sql.ref(k)));
  const r = await sql<
    Record<string, unknown>
  >`select * from ${sql.table(table)} order by ${order}`.execute(db.withoutPlugins());
  return r.rows;
}

/** A checksum of rows, whichever engine read them (numbers and strings as text, keys sorted). */
function checksum(rows: Record<string, unknown>[]): string {
  const hash = createHash('sha256');
  for (const row of rows) {
    const cells = Object.keys(row)
      .sort()
      .map((k) => [k, row[k] === null || row[k] === undefined ? null : String(row[k])]);
    hash.update(JSON.stringify(cells));
    hash.update('\n');
  }
  return hash.digest('hex');
}

/**
 * Why the target is not empty, or undefined when it is (nothing but the rows the migrations
 * seed).
 */
export async function whyNotEmpty(target: Db, tables: string[]): Promise<string | undefined> {
  const raw = target.withoutPlugins();
  for (const table of tables) {
    const seededBy = SEEDED[table];
    const where = seededBy ? sql`where ${sql.ref(seededBy)} is not null` : sql``;
    const r = await sql<{
      n: number;
    }>`select count(*) as n from ${sql.table(table)} ${where}`.execute(raw);
    const n = Number(r.rows[0]?.n ?? 0);
    if (n > 0) return `its table ${table} has ${n} row(s)`;
  }
  return undefined;
}

/**
 * Copies every table of `sqlite` into `postgres` (both migrated to the newest version; the
 * target empty, else it throws) and verifies each. Answers one report per table.
 */
export async function copySqliteToPostgres(
  sqlite: Db,
  postgres: Db,
  log: (line: string) => void = () => undefined,
  /** server_settings rows to write with the copy (the secrets of DATA_DIR/secrets.json). */
  settings: Record<string, string> = {},
): Promise<TableReport[]> {
  const tables = await tablesInOrder(sqlite);
  const busy = await whyNotEmpty(postgres, tables);
  if (busy) throw new TargetNotEmpty(busy);
  return postgres.transaction().execute(async (trx) => {
    const raw = trx.withoutPlugins();
    const reports: TableReport[] = [];
    for (const table of tables) {
      const key = await keyColumns(sqlite, table);
      const rows = await rowsOf(sqlite, table, key);
      // The migrations seeded these on both sides; the source's copy (counts and all) wins.
      if (SEEDED[table]) {
        await sql`delete from ${sql.table(table)} where ${sql.ref(SEEDED[table])} is null`.execute(
          raw,
        );
      }
      for (let i = 0; i < rows.length; i += 500) {
        const part = rows.slice(i, i + 500);
        const columns = Object.keys(part[0]!);
        const values = sql.join(part.map((r) => sql`(${sql.join(columns.map((c) => r[c]))})`));
        await sql`insert into ${sql.table(table)} (${sql.join(
          columns.map((c) => sql.ref(c)),
        )}) values ${values}`.execute(raw);
      }
      const copied = await rowsOf(trx, table, key);
      const expected = checksum(rows);
      const got = checksum(copied);
      const ok = copied.length === rows.length && got === expected;
      reports.push({ table, rows: rows.length, checksum: expected.slice(0, 16), ok });
      log(
        `${ok ? 'ok  ' : 'DIFF'} ${table.padEnd(22)} ${String(rows.length).padStart(9)} rows  ${expected.slice(0, 16)}${ok ? '' : ` ≠ ${got.slice(0, 16)} (${copied.length} rows)`}`,
      );
    }
    const bad = reports.filter((r) => !r.ok);
    if (bad.length) throw new CopyMismatch(bad.map((r) => r.table));
    for (const [name, value] of Object.entries(settings)) {
      await trx
        .insertInto('serverSettings')
        .values({ name, value })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
        .execute();
    }
    return reports;
  });
}

export class TargetNotEmpty extends Error {
  constructor(readonly reason: string) {
    super(`The PostgreSQL database is not empty: ${reason}. Copy into a new, empty database.`);
  }
}

export class CopyMismatch extends Error {
  constructor(readonly tables: string[]) {
    super(`The copy differs from the source in ${tables.join(', ')}: nothing was kept.`);
  }
}
