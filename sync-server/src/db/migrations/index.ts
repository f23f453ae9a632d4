/**
 * Numbered migrations, run in order at start. Append only: a shipped migration is never renamed,
 * and the statements it sends never change (its code may be rewritten only to send exactly the
 * same ones, compared on a fresh database of each dialect; migrations.test.ts pins them); a
 * change to the schema is a new file with the next number. The helpers shipped migrations call
 * (schema.ts, tables.ts, changes-friendship-index.ts) are frozen with them.
 */
import type { Migration } from 'kysely/migration';
import * as m001 from './001-accounts';
import * as m002 from './002-pings';
import * as m003 from './003-default-prompts';
import * as m004 from './004-packs';
import * as m005 from './005-safety';
import * as m006 from './006-perf-indexes';
import * as m007 from './007-written-at';
import * as m008 from './008-change-numbers';
import * as m009 from './009-cluster';
import * as m010 from './010-identity-notify';

export const migrations: Record<string, Migration> = {
  '001-accounts': m001,
  '002-pings': m002,
  '003-default-prompts': m003,
  '004-packs': m004,
  '005-safety': m005,
  '006-perf-indexes': m006,
  '007-written-at': m007,
  '008-change-numbers': m008,
  '009-cluster': m009,
  '010-identity-notify': m010,
};
