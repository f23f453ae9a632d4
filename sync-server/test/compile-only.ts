/**
 * Kysely dialects that compile queries without a database (DummyDriver), one per engine: tests
 * that pin the SQL the server sends (migrations, conditions, what a statement may change).
 */
import {
  CamelCasePlugin,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Dialect,
} from 'kysely';
import type { Database } from '../src/db/schema';

export const compileOnlyDialects: Record<'sqlite' | 'postgres', Dialect> = {
  sqlite: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
  postgres: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
};

/** A builder of the server's schema that only compiles, with the server's CamelCasePlugin. */
export function compileOnly(engine: 'sqlite' | 'postgres'): Kysely<Database> {
  return new Kysely<Database>({
    dialect: compileOnlyDialects[engine],
    plugins: [new CamelCasePlugin()],
  });
}
