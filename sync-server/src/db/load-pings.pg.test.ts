/**
 * loadPings on PostgreSQL: one statement a chunk, where every statement is a round trip, answering
 * what the reads one table at a time answer (db/pings-as-seen.test.ts holds both ways to an oracle
 * on SQLite).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase } from '../../test/postgres';
import { personRow, pingRow } from '../../test/rows';
import { openDatabase, type OpenedDb } from './connection';
import { loadPings, loadPingsBy } from './pings';

let url: string;
let opened: OpenedDb;
const ran: string[] = [];
const at = (n: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, n)).toISOString();

beforeAll(async () => {
  url = await createDatabase(inject('postgres').adminUrl);
  opened = await openDatabase(url, {
    poolSize: 2,
    onQuery: (_kind, _ms, text) => void ran.push(text),
  });
  const { db } = opened;
  await db
    .insertInto('users')
    .values(['ann', 'ben', 'cat'].map((id) => ({ ...personRow(id, at(0)), firstName: id })))
    .execute();
  // Ben read p2 (from Ann) after Ann blocked him: Ann, its sender, sees it unread.
  await db
    .insertInto('pings')
    .values([
      pingRow('p1', 'ann', 'ben', at(1)),
      { ...pingRow('p2', 'ann', 'ben', at(2)), isRead: 1, readAt: at(9) },
      pingRow('p3', 'cat', 'ann', at(3)),
    ])
    .execute();
  await db
    .insertInto('reactions')
    .values([
      { id: 'r1', pingId: 'p1', userId: 'ben', reactionType: 'heart', createdAt: at(6) },
      { id: 'r2', pingId: 'p1', userId: 'ann', reactionType: 'wow', createdAt: at(7) },
    ])
    .execute();
  await db
    .insertInto('moments')
    .values({
      id: 'm1',
      userId: 'ann',
      pingId: 'p3',
      title: 'kept',
      description: null,
      createdAt: at(8),
    })
    .execute();
  await db
    .insertInto('blocks')
    .values({ blockerId: 'ann', blockedId: 'ben', createdAt: at(5) })
    .execute();
});
afterAll(async () => {
  await opened?.close();
  await dropDatabase(url);
});

describe('loadPings on PostgreSQL', () => {
  it.each(['ann', 'ben', 'cat'])(
    'answers %s in one statement, as the reads by table do',
    async (viewer) => {
      const ids = ['p3', 'unknown', 'p2', 'p1'];
      ran.length = 0;
      const loaded = await loadPings(opened.db, viewer, ids);
      expect(ran).toHaveLength(1);
      expect(loaded).toEqual(await loadPingsBy('table', opened.db, viewer, ids));
    },
  );

  it('carries the people, reactions, bookmark and the read mark hidden behind a block', async () => {
    const [p3, p2, p1] = await loadPings(opened.db, 'ann', ['p3', 'p2', 'p1']);
    expect([p3!.sender.firstName, p3!.isBookmarked]).toEqual(['cat', true]);
    expect([p2!.isRead, p2!.readAt]).toEqual([false, null]);
    expect(p1!.reactions.map((r) => r.id)).toEqual(['r1', 'r2']);
    const [seenByBen] = await loadPings(opened.db, 'ben', ['p2']);
    expect([seenByBen!.isRead, seenByBen!.readAt]).toEqual([true, at(9)]);
  });
});
