/**
 * Where SQLite and PostgreSQL differ, in one place (docs/deploy.md, "Two backends"). Every query
 * module is written with Kysely's builder over types both engines share (text, integers), so the
 * differences left are few: how a table's integers and strings are declared (migrations), a
 * handful of PostgreSQL-only clauses (row locks, advisory locks, NOTIFY), and the error codes
 * that mean "try again" or "already there".
 */
import {
  ColumnDefinitionNode,
  DataTypeNode,
  GeneratedNode,
  OperationNodeTransformer,
  PostgresAdapter,
  RawNode,
  sql,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** A `postgres://` or `postgresql://` URL selects PostgreSQL; anything else is a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const isPostgres = (db: Kysely<any>): boolean => dialectOf(db) === 'postgres';

/** SQLite's and PostgreSQL's unique-constraint errors. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return (
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === '23505'
  );
}

/**
 * PostgreSQL gave up on a transaction that may succeed when run again: a serialization failure
 * (40001), a deadlock (40P01), or a prepared statement whose table another node's migration
 * changed (0A000, "cached plan must not change result type": postgres-statements.ts names it
 * afresh for the next run). SQLite has one writer and never answers any of them. (A unique
 * violation is the other error a concurrent writer causes: a check-then-insert that lost a race.
 * The unit of work runs such a write again too, where it then sees the other's row:
 * unit-of-work.ts.)
 */
export function isRetryableConflict(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '40001' || code === '40P01' || code === '0A000';
}

/**
 * The schema on PostgreSQL. The migrations were written for SQLite, whose INTEGER is 64 bits and
 * whose strings compare byte by byte; they run unchanged on PostgreSQL through this plugin, which
 * only the migrator uses:
 *
 * - `integer` is `bigint` (times in milliseconds do not fit in 32 bits; values stay below 2^53,
 *   and connection.ts reads int8 as a JavaScript number);
 * - `text` is `text collate "C"`: byte order, as SQLite's BINARY, so ids page and sort the same
 *   on both (an id compared with `>` in a snapshot, a list sorted in JavaScript) whatever locale
 *   the database was created with;
 * - an autoincrement key is an identity column;
 * - SQLite's two-argument `min(a, b)` and `max(a, b)` in index expressions are `least` and
 *   `greatest`.
 */
export class PostgresMigrationPlugin implements KyselyPlugin {
  private readonly transformer = new PostgresSchemaTransformer();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node, args.queryId);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const TEXT_C = RawNode.createWithSql('text collate "C"');

class PostgresSchemaTransformer extends OperationNodeTransformer {
  protected override transformColumnDefinition(node: ColumnDefinitionNode): ColumnDefinitionNode {
    let out = super.transformColumnDefinition(node);
    if (DataTypeNode.is(out.dataType) && out.dataType.dataType === 'text') {
      out = Object.freeze({ ...out, dataType: TEXT_C });
    }
    if (out.autoIncrement) {
      out = ColumnDefinitionNode.cloneWith(out, {
        autoIncrement: false,
        generated: GeneratedNode.create({ byDefault: true, identity: true }),
      });
    }
    return out;
  }

  protected override transformDataType(node: DataTypeNode): DataTypeNode {
    return node.dataType === 'integer' ? DataTypeNode.create('bigint') : node;
  }

  protected override transformRaw(node: RawNode): RawNode {
    const fragments = node.sqlFragments.map((f) =>
      f.replace(TWO_ARG_MIN, 'least($1,$2)').replace(TWO_ARG_MAX, 'greatest($1,$2)'),
    );
    return super.transformRaw({ ...node, sqlFragments: Object.freeze(fragments) });
  }
}

const TWO_ARG_MIN = /\bmin\(([^(),]+),([^(),]+)\)/gi;
const TWO_ARG_MAX = /\bmax\(([^(),]+),([^(),]+)\)/gi;

/**
 * PostgreSQL: a transaction-scoped advisory lock on `key`, taken at once or not at all (another
 * node holds it). SQLite has one process: always true.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function tryAdvisoryXactLock(trx: Kysely<any>, key: number): Promise<boolean> {
  if (!isPostgres(trx)) return true;
  const r = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${key}) as ok`.execute(trx);
  return r.rows[0]?.ok === true;
}

/** Advisory lock keys of this server (one number space per database). */
export const ADVISORY_LOCKS = { housekeeping: 7_101_301 } as const;
