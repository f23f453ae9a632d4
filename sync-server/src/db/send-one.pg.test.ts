/**
 * One send to one person on PostgreSQL: its checks and its insert in one statement, one round
 * trip (test/send-one.ts).
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { createDatabase, dropDatabase } from '../../test/postgres';
import { describeSendOne } from '../../test/send-one';
import { openDatabase } from './connection';

let url: string;
beforeAll(async () => {
  url = await createDatabase(inject('postgres').adminUrl);
});
afterAll(() => dropDatabase(url));

describeSendOne('PostgreSQL', (opts) => openDatabase(url, { ...opts, poolSize: 2 }));
