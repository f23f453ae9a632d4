/**
 * findPingAsSeenAndReact (db/pings.ts), a reaction's read: what it answers about the ping is
 * what findPingAsSeen answers, in one statement on either backend; on PostgreSQL that statement
 * also writes the reaction exactly when the reaction mutation's checks let it (the person sent or
 * received the ping, no block stands between its people, no reaction has the id), on SQLite it
 * writes nothing (the caller does, after its checks). Run by db/react-one.test.ts on SQLite and
 * db/react-one.pg.test.ts on PostgreSQL.
 */
import type { Reaction } from '@pingme/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OpenedDb, OpenOptions } from '../src/db/connection';
import { findPingAsSeen, findPingAsSeenAndReact, loadPings } from '../src/db/pings';
import { ChangeSet } from '../src/db/unit-of-work';
import type { Config } from '../src/config';
import { pingMutations } from '../src/mutations/pings';
import { personRow, pingRow } from './rows';

export function describeReactOne(
  backend: 'SQLite' | 'PostgreSQL',
  open: (opts: OpenOptions) => Promise<OpenedDb>,
): void {
  const writes = backend === 'PostgreSQL';

  describe(`findPingAsSeenAndReact on ${backend}`, () => {
    let opened: OpenedDb;
    const ran: string[] = [];
    const at = (n: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, n)).toISOString();
    let n = 0;

    beforeAll(async () => {
      opened = await open({ onQuery: (_kind, _ms, text) => void ran.push(text) });
      const { db } = opened;
      await db
        .insertInto('users')
        .values(['ann', 'ben', 'cat'].map((id) => personRow(id, at(0))))
        .execute();
      // Ann sent Ben p1 and p2; Cat sent Ben p3, and Ben blocked Cat.
      await db
        .insertInto('pings')
        .values([
          pingRow('p1', 'ann', 'ben', at(1)),
          pingRow('p2', 'ann', 'ben', at(2)),
          pingRow('p3', 'cat', 'ben', at(3)),
        ])
        .execute();
      await db
        .insertInto('blocks')
        .values({ blockerId: 'ben', blockedId: 'cat', createdAt: at(4) })
        .execute();
    });
    afterAll(() => opened.close());
    beforeEach(async () => {
      await opened.db.deleteFrom('reactions').execute();
      // Ann's reaction on p2, whose id others try to take.
      await opened.db
        .insertInto('reactions')
        .values(reaction('p2', 'ann', 'taken'))
        .execute();
    });

    function reaction(pingId: string, userId: string, id = `r-${++n}`): Reaction {
      return { id, pingId, userId, reactionType: 'heart', createdAt: at(10 + n) };
    }

    const stored = () =>
      opened.db.selectFrom('reactions').selectAll().orderBy('pingId').orderBy('userId').execute();

    it.each([
      ['Ben on p1, which he received', 'p1', 'ben', undefined],
      ['Ann on p1, which she sent', 'p1', 'ann', undefined],
      ['Cat on p1, which is not hers', 'p1', 'cat', undefined],
      ['Ben on p3, behind his block of Cat', 'p3', 'ben', undefined],
      ['Ben on p1 with an id taken on p2', 'p1', 'ben', 'taken'],
      ['Ann again on p2 with her own id (a replay)', 'p2', 'ann', 'taken'],
      ['Ben on an unknown ping', 'nope', 'ben', undefined],
    ])('answers %s as findPingAsSeen does, in one statement', async (_what, pingId, userId, id) => {
      const asked = reaction(pingId, userId, id);
      const before = await findPingAsSeen(opened.db, pingId, userId, asked.id);
      const rowsBefore = await stored();
      ran.length = 0;
      const { found, written } = await findPingAsSeenAndReact(opened.db, asked);
      expect(ran).toHaveLength(1);
      expect(found && { ...found, asSeen: undefined }).toEqual(
        before && { ...before, asSeen: undefined },
      );
      expect(found && (await found.asSeen())).toEqual(before && (await before.asSeen()));
      // The mutation's checks, as mutations/pings.ts makes them.
      const allowed =
        found !== undefined &&
        [found.ping.senderId, found.ping.receiverId].includes(userId) &&
        !found.blocked &&
        !found.reactionIdElsewhere &&
        !found.reactions.some((r) => r.id === asked.id);
      const rows = await stored();
      if (writes && allowed) {
        expect(written).toBe(true);
        expect(rows.filter((r) => r.pingId === pingId && r.userId === userId)).toEqual([asked]);
        expect(rows).toHaveLength(rowsBefore.length + 1);
      } else {
        expect(written).toBe(false);
        expect(rows).toEqual(rowsBefore);
      }
    });

    it(`replaces the person’s earlier reaction on the ping${writes ? ', in the same statement' : ' only when the caller writes'}`, async () => {
      const first = reaction('p1', 'ben');
      const second = { ...reaction('p1', 'ben'), reactionType: 'wow' as const };
      await findPingAsSeenAndReact(opened.db, first);
      const { written } = await findPingAsSeenAndReact(opened.db, second);
      expect(written).toBe(writes);
      const bens = (await stored()).filter((r) => r.userId === 'ben');
      expect(bens).toEqual(writes ? [second] : []);
    });

    it(`reacts through the mutation in ${writes ? 'one statement' : 'two statements'}, answered as loadPings reads it after`, async () => {
      const me = await opened.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', 'ben')
        .executeTakeFirstOrThrow();
      const c = { trx: opened.db, changes: new ChangeSet(), me, config: {} as Config, ip: '::1' };
      const react = () =>
        pingMutations['ping.react'](c, { pingId: 'p1', id: 'r-mutation', reactionType: 'yes' });
      ran.length = 0;
      const made = await react();
      expect(ran).toHaveLength(writes ? 1 : 2);
      expect(made.status).toBe(201);
      expect(made.body).toEqual((await loadPings(opened.db, 'ben', ['p1']))[0]);
      expect(made.body.reactions.map((r) => [r.id, r.userId, r.reactionType])).toEqual([
        ['r-mutation', 'ben', 'yes'],
      ]);
      // The same id again is a replay: the one read, no write.
      ran.length = 0;
      const again = await react();
      expect([ran.length, again.status, again.body]).toEqual([1, 200, made.body]);
    });
  });
}
