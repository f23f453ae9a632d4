/**
 * counterAndChangesAfter, a pull's one read of the change log: the person's counter (newest
 * number and floor) and their rows after a cursor, as the two separate reads answered them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personRow } from '../../test/rows';
import { recordStatements } from '../../test/statements';
import { appendChanges, counterAndChangesAfter, counterOf } from './changes';
import { openDatabase, type OpenedDb } from './connection';

let opened: OpenedDb;

beforeAll(async () => {
  opened = await openDatabase(':memory:');
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
  await db.updateTable('changeCounters').set({ floor: 1 }).where('userId', '=', 'ann').execute();
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

describe('counterAndChangesAfter', () => {
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

  it('is one statement', async () => {
    const counted = recordStatements(opened.sqlite);
    try {
      await counterAndChangesAfter(opened.db, 'ann', 0, 500);
    } finally {
      counted.restore();
    }
    expect(counted.sources).toHaveLength(1);
  });
});
