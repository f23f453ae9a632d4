/**
 * A reaction on PostgreSQL: its read, its checks and its write in one statement, one round trip
 * (test/react-one.ts).
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { createDatabase, dropDatabase } from '../../test/postgres';
import { describeReactOne } from '../../test/react-one';
import { openDatabase } from './connection';

let url: string;
beforeAll(async () => {
  url = await createDatabase(inject('postgres').adminUrl);
});
afterAll(() => dropDatabase(url));

describeReactOne('PostgreSQL', (opts) => openDatabase(url, { ...opts, poolSize: 2 }));
