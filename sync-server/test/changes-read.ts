/**
 * counterAndChangesAfter, a pull's read of the change log (db/changes.ts): the person's counter
 * (newest number and floor) and their rows after a cursor, as counterOf and a plain read of the
 * rows answer them, in as many statements as the backend is meant to take (SQLite 2, PostgreSQL
 * 1). Run by db/changes-read.test.ts on SQLite and db/changes-read.pg.test.ts on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendChanges, counterAndChangesAfter, counterOf } from '../src/db/changes';
import type { OpenedDb, OpenOptions } from '../src/db/connection';
import { personRow } from './rows';

export function describeChangesRead(
  backend: string,
  open: (opts: OpenOptions) => Promise<OpenedDb>,
  statements: number,
): void {
  describe(`counterAndChangesAfter on ${backend}`, () => {
    let opened: OpenedDb;
    /** The statements run since the last reset (Kysely's log and SQLite's direct path alike). */
    const ran: string[] = [];

    beforeAll(async () => {
      opened = await open({ onQuery: (_kind, _ms, text) => void ran.push(text) });
      const { db } = opened;
      const now = new Date().toISOString();
      await db
        .insertInto('users')
        .values(['ann', 'ben', 'cat'].map((id) => personRow(id, now)))
        .execute();
      // Ann's numbers 1-5 and Ben's 1-2, interleaved; Cat has none.
      for (const [who, id] of [
        [['ann', 'ben'], 'p1'],
        [['ann'], 'p2'],
        [['ann', 'ben'], 'p3'],
        [['ann'], 'p4'],
        [['ann'], 'p5'],
      ] as const) {
        await appendChanges(
          db,
          who.map((userId) => ({ userId, entity: 'ping', entityId: id, op: 'create' })),
        );
      }
      // As if Ann's first row had been pruned.
      await db
        .updateTable('changeCounters')
        .set({ floor: 1 })
        .where('userId', '=', 'ann')
        .execute();
    });
    afterAll(() => opened.close());

    /** The rows after `after`, read on their own. */
    async function rowsAfter(userId: string, after: number, limit: number) {
      const rows = await opened.db
        .selectFrom('changes')
        .select(['seq', 'entity', 'entityId', 'op'])
        .where('userId', '=', userId)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
    }

    const cases: [person: string, after: number, limit: number][] = [
      ['ann', 0, 500],
      ['ann', 2, 500],
      ['ann', 2, 2],
      ['ann', 5, 500],
      ['ann', 9, 500],
      ['ben', 1, 500],
      ['cat', 0, 500],
    ];

    it.each(cases)(
      'answers %s after %i (at most %i) as the counter and the rows read apart',
      async (person, after, limit) => {
        const read = await counterAndChangesAfter(opened.db, person, after, limit);
        expect(read.counter).toEqual(await counterOf(opened.db, person));
        expect(read.rows).toEqual(await rowsAfter(person, after, limit));
      },
    );

    it('reads numbers, floors and rows as they are', async () => {
      const ann = await counterAndChangesAfter(opened.db, 'ann', 2, 2);
      expect(ann.counter).toEqual({ seq: 5, floor: 1 });
      expect(ann.rows.map((r) => [r.seq, r.entityId, r.op])).toEqual([
        [3, 'p3', 'create'],
        [4, 'p4', 'create'],
      ]);
      expect(await counterAndChangesAfter(opened.db, 'cat', 0, 500)).toEqual({
        counter: { seq: 0, floor: 0 },
        rows: [],
      });
    });

    it(`takes ${statements} statement(s)`, async () => {
      ran.length = 0;
      await counterAndChangesAfter(opened.db, 'ann', 0, 500);
      expect(ran).toHaveLength(statements);
    });
  });
}
