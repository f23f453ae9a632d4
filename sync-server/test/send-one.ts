/**
 * sendTargetAndInsert (db/ping-sends.ts), one send to one person: what it answers about the
 * sender and the receiver is what sendTargets answers, in one statement on either backend; on
 * PostgreSQL that statement also inserts the ping when the receiver is a friend under their
 * daily limit (and not when the id is taken), on SQLite it inserts nothing (the caller does,
 * after its checks). Run by db/send-one.test.ts on SQLite and db/send-one.pg.test.ts on
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedDb, OpenOptions } from '../src/db/connection';
import { sendTargetAndInsert, sendTargets, type NewPing } from '../src/db/ping-sends';
import { ChangeSet } from '../src/db/unit-of-work';
import { sendPings } from '../src/services/pings';
import { personRow, pingRow } from './rows';

export function describeSendOne(
  backend: 'SQLite' | 'PostgreSQL',
  open: (opts: OpenOptions) => Promise<OpenedDb>,
): void {
  const inserts = backend === 'PostgreSQL';

  describe(`sendTargetAndInsert on ${backend}`, () => {
    let opened: OpenedDb;
    const ran: string[] = [];
    const now = new Date().toISOString();
    const since = new Date(Date.now() - 24 * 3600_000).toISOString();
    let n = 0;

    beforeAll(async () => {
      opened = await open({ onQuery: (_kind, _ms, text) => void ran.push(text) });
      const { db } = opened;
      // Ann and Ben are friends (Ben asked), Ann and Cat are not; Dan allows Ann 2 pings a day.
      await db
        .insertInto('users')
        .values([
          personRow('ann', now),
          personRow('ben', now),
          personRow('cat', now),
          { ...personRow('dan', now), rateLimitPerDay: 2 },
        ])
        .execute();
      await db
        .insertInto('friendships')
        .values(
          (['ben', 'dan'] as const).map((id) => ({
            id: `f-${id}`,
            requesterId: id,
            addresseeId: 'ann',
            status: 'accepted' as const,
            createdAt: now,
            acceptedAt: now,
          })),
        )
        .execute();
      await db
        .insertInto('pings')
        .values([pingRow('dan-1', 'ann', 'dan', now), pingRow('dan-2', 'ann', 'dan', now)])
        .execute();
    });
    afterAll(() => opened.close());

    function ping(receiverId: string, id = `p-${++n}`): NewPing {
      return {
        id,
        senderId: 'ann',
        receiverId,
        kind: 'custom',
        promptId: null,
        promptText: null,
        promptEmoji: null,
        customText: `hello ${receiverId}`,
        customEmoji: '👋',
        anchorId: null,
        groupId: null,
        createdAt: now,
        writtenAt: null,
      };
    }

    const stored = async (id: string) =>
      (await opened.db.selectFrom('pings').select('id').where('id', '=', id).execute()).length;

    it.each(['ben', 'cat', 'dan', 'nobody'])(
      'answers the sender and %s as sendTargets does',
      async (receiverId) => {
        const one = await sendTargetAndInsert(opened.db, since, ping(receiverId));
        const apart = await sendTargets(opened.db, 'ann', [receiverId], since);
        expect(one.sender).toEqual(apart.sender);
        // Read after it, the count holds the ping the send inserted (PostgreSQL, to Ben).
        const after = apart.receivers.get(receiverId);
        expect(one.receivers.get(receiverId)).toEqual(
          after && { ...after, sentSince: after.sentSince - (one.inserted ?? 0) },
        );
        expect(one.sender?.id).toBe('ann');
      },
    );

    it(
      inserts
        ? 'inserts the ping to a friend under their limit, in one statement'
        : 'inserts nothing, in one statement: the caller inserts',
      async () => {
        const p = ping('ben');
        ran.length = 0;
        const r = await sendTargetAndInsert(opened.db, since, p);
        expect(ran).toHaveLength(1);
        expect(r.inserted).toBe(inserts ? 1 : undefined);
        expect(r.receivers.get('ben')?.isFriend).toBe(true);
        expect(await stored(p.id)).toBe(inserts ? 1 : 0);
        if (inserts) {
          // Every column where it belongs, unread.
          const row = await opened.db
            .selectFrom('pings')
            .selectAll()
            .where('id', '=', p.id)
            .executeTakeFirstOrThrow();
          expect(row).toEqual({ ...p, isRead: 0, readAt: null });
        }
      },
    );

    it.each([
      ['cat', 'not a friend'],
      ['dan', 'at their daily limit'],
      ['nobody', 'no such person'],
    ])('inserts nothing for %s (%s)', async (receiverId) => {
      const p = ping(receiverId);
      const r = await sendTargetAndInsert(opened.db, since, p);
      expect(r.inserted).toBe(inserts ? 0 : undefined);
      expect(await stored(p.id)).toBe(0);
    });

    it('inserts nothing, without an error, when the id is taken', async () => {
      const r = await sendTargetAndInsert(opened.db, since, ping('ben', 'dan-1'));
      expect(r.inserted).toBe(inserts ? 0 : undefined);
      const row = await opened.db
        .selectFrom('pings')
        .select('receiverId')
        .where('id', '=', 'dan-1')
        .executeTakeFirstOrThrow();
      expect(row.receiverId).toBe('dan');
    });

    it(`sends to one friend in ${inserts ? 'one statement' : 'two statements'} (services/pings.ts)`, async () => {
      ran.length = 0;
      const [sent] = await sendPings(opened.db, new ChangeSet(), 'ann', {
        receiverIds: ['ben'],
        ids: ['p-service'],
        groupId: null,
        content: {
          kind: 'custom',
          promptId: null,
          promptText: null,
          promptEmoji: null,
          customText: 'through the service',
          customEmoji: '👋',
          anchorId: null,
        },
      });
      expect(ran).toHaveLength(inserts ? 1 : 2);
      expect(sent).toMatchObject({
        id: 'p-service',
        receiverId: 'ben',
        customText: 'through the service',
      });
      expect(await stored('p-service')).toBe(1);
    });

    it('counts the pings sent since the window began', async () => {
      const r = await sendTargetAndInsert(opened.db, since, ping('dan'));
      expect(r.receivers.get('dan')).toMatchObject({ sentSince: 2, rateLimitPerDay: 2 });
    });
  });
}
