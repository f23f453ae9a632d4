/**
 * The shipped migrations are frozen (index.ts): their code may be rewritten only to send exactly
 * the statements it sent before. Every statement each migration sends to a fresh database, with
 * its parameters (the seed rows), is pinned here for both dialects: SQLite, run for real, and
 * PostgreSQL as the server sends it (through PostgresMigrationPlugin), compiled without a server.
 */
import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, type Dialect, type LogEvent } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compileOnlyDialects } from '../../../test/compile-only';
import { PostgresMigrationPlugin } from '../dialect';
import { migrations } from './index';

const compiledOnly = compileOnlyDialects.postgres;

/** Runs every migration's `up` in order on `db`, and answers the statements each sent. */
async function statementsOf(
  dialect: Dialect,
  migrationDb: (db: Kysely<unknown>) => Kysely<unknown> = (db) => db,
): Promise<Record<string, string[]>> {
  let sent: string[] = [];
  const log = (event: LogEvent) => {
    sent.push(`${event.query.sql}\n-- ${JSON.stringify(event.query.parameters)}`);
  };
  const db = new Kysely<unknown>({ dialect, plugins: [new CamelCasePlugin()], log });
  const byMigration: Record<string, string[]> = {};
  try {
    for (const [name, migration] of Object.entries(migrations)) {
      sent = [];
      await migration.up(migrationDb(db));
      byMigration[name] = sent;
    }
  } finally {
    await db.destroy();
  }
  return byMigration;
}

describe('the shipped migrations', () => {
  // 005 stamps the sessions it finds with the time it runs.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-01-01T00:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('send the same statements to a fresh SQLite database', async () => {
    const sqlite = new BetterSqlite3(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const statements = await statementsOf(new SqliteDialect({ database: sqlite }));
    expect(Object.keys(statements)).toEqual(Object.keys(migrations));
    expect(statements).toMatchSnapshot();
  });

  it('send the same statements to a fresh PostgreSQL database', async () => {
    const statements = await statementsOf(compiledOnly, (db) =>
      db.withPlugin(new PostgresMigrationPlugin()),
    );
    expect(statements).toMatchSnapshot();
  });
});
