/**
 * A pull's read of the change log on PostgreSQL: the counter and the rows in one statement, one
 * round trip (test/changes-read.ts).
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { createDatabase, dropDatabase } from '../../test/postgres';
import { describeChangesRead } from '../../test/changes-read';
import { openDatabase } from './connection';

let url: string;
beforeAll(async () => {
  url = await createDatabase(inject('postgres').adminUrl);
});
afterAll(() => dropDatabase(url));

describeChangesRead('PostgreSQL', (opts) => openDatabase(url, { ...opts, poolSize: 2 }), 1);
