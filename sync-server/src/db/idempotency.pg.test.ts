/**
 * A group's idempotency records stored together on PostgreSQL (idempotency.ts,
 * saveIdempotentEach): two transactions on two nodes that store the same keys (one batch sent to
 * both) wait for each other and never deadlock, because each stores its records in (caller, key)
 * order whatever order its writes ran in. Without the ordering the two inserts below take their
 * rows in opposite orders and PostgreSQL ends one of them with a deadlock.
 */
import { uuidv7 } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase } from '../../test/postgres';
import { personRow } from '../../test/rows';
import { openDatabase, type OpenedDb } from './connection';
import { saveIdempotentEach, type IdempotentRecord } from './idempotency';

let url: string;
let nodes: OpenedDb[];
beforeAll(async () => {
  url = await createDatabase(inject('postgres').adminUrl);
  nodes = [await openDatabase(url, { poolSize: 2 }), await openDatabase(url, { poolSize: 2 })];
});
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.close()));
  await dropDatabase(url);
});

describe('idempotency records stored together on PostgreSQL', () => {
  it('two transactions storing the same keys in opposite orders: one stores them all, the other waits and finds them taken', async () => {
    const caller = uuidv7();
    await nodes[0]!.db.insertInto('users').values(personRow(caller)).execute();
    for (let round = 0; round < 10; round++) {
      const records: IdempotentRecord[] = Array.from({ length: 200 }, (_, i) => ({
        caller,
        key: `round-${round}-key-${String(i).padStart(3, '0')}`,
        requestHash: `hash-${i}`,
        status: 201,
        body: `{"n":${i}}`,
      }));
      const orders = [records, [...records].reverse()];
      const outcomes = await Promise.all(
        nodes.map((node, i) =>
          node.db.transaction().execute((trx) => saveIdempotentEach(trx, orders[i]!)),
        ),
      );
      expect(outcomes.sort()).toEqual([false, true]);
      const stored = await nodes[0]!.db
        .selectFrom('idempotencyKeys')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('key', 'like', `round-${round}-%`)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(200);
    }
  });
});
