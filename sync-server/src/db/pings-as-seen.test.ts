/**
 * The reads that answer a ping as a person sees it in fewer statements than loadPings, each held
 * to loadPings' answer: pingsAsReceived, the relay's read of a pass over the change log
 * (realtime/relay.ts), for everyone it names together rather than person by person; and
 * findPingAsSeen, the one read of a ping, its people and the viewer's bookmark that a reaction, a
 * read mark or a bookmark answers with; and markAllRead, which marks and answers in one statement.
 */
import type { Ping } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDb } from './connection';
import {
  findPingAsSeen,
  loadPings,
  loadPingsBy,
  markAllRead,
  markRead,
  pingsAsReceived,
} from './pings';
import { replaceReaction } from './reactions';
import { personRow, pingRow } from '../../test/rows';
import { recordStatements } from '../../test/statements';

let opened: OpenedDb;
/** Every statement's text, as the server's query log sees it (compiled ones included). */
const ran: string[] = [];
const at = (n: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, n)).toISOString();

const ping = (id: string, senderId: string, receiverId: string, n: number) =>
  pingRow(id, senderId, receiverId, at(n));

beforeAll(async () => {
  opened = await openDatabase(':memory:', { onQuery: (_kind, _ms, text) => void ran.push(text) });
  const { db } = opened;
  await db
    .insertInto('users')
    .values(
      // Named, so that an answer with a person's summary shows whose it is.
      ['ann', 'ben', 'cat', 'dan'].map((id) => ({ ...personRow(id, at(0)), firstName: id })),
    )
    .execute();
  await db
    .insertInto('pings')
    .values([
      ping('p1', 'ann', 'ben', 1),
      ping('p2', 'cat', 'ben', 2),
      { ...ping('p3', 'ben', 'ann', 3), isRead: 1, readAt: at(9) },
      ping('p4', 'ann', 'dan', 4),
      ping('p5', 'dan', 'cat', 5),
    ])
    .execute();
  await db
    .insertInto('reactions')
    .values([
      { id: 'r1', pingId: 'p1', userId: 'ben', reactionType: 'heart', createdAt: at(6) },
      { id: 'r2', pingId: 'p1', userId: 'ann', reactionType: 'wow', createdAt: at(7) },
      { id: 'r3', pingId: 'p3', userId: 'ann', reactionType: 'yes', createdAt: at(8) },
    ])
    .execute();
  await db
    .insertInto('moments')
    .values([
      // Ben's bookmark of a ping he received; Ann's of one she sent (not Ben's).
      { id: 'm1', userId: 'ben', pingId: 'p2', title: 'kept', description: null, createdAt: at(9) },
      { id: 'm2', userId: 'ann', pingId: 'p1', title: 'mine', description: null, createdAt: at(9) },
    ])
    .execute();
});
afterAll(() => opened.close());

describe('pingsAsReceived', () => {
  // Each person's ids as a pass names them: the log names a new ping to both of its people.
  const named = new Map([
    ['ben', ['p1', 'p2', 'p3', 'p1']],
    ['ann', ['p4', 'p3', 'p1']],
    ['dan', ['p4']],
    ['cat', ['p2', 'unknown']],
  ]);

  it('gives each person the pings they received, as loadPings shows them to that person', async () => {
    const got = await pingsAsReceived(opened.db, named);
    for (const [person, ids] of named) {
      const asLoaded = (await loadPings(opened.db, person, [...new Set(ids)])).filter(
        (p) => p.receiverId === person,
      );
      expect(got.get(person) ?? [], person).toEqual(asLoaded);
    }
    expect([...got.keys()].sort()).toEqual(['ann', 'ben', 'dan']);
    expect(got.get('ben')!.map((p) => p.id)).toEqual(['p1', 'p2']);
    const [p1, p2] = got.get('ben')!;
    expect(p1!.reactions.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect([p1!.isBookmarked, p2!.isBookmarked]).toEqual([false, true]);
    expect(p1!.sender).toMatchObject({ id: 'ann' });
    expect(got.get('ann')!.map((p) => [p.id, p.isRead, p.reactions.length])).toEqual([
      ['p3', true, 1],
    ]);
  });

  it('reads every receiver’s pings together: one statement per table, however many receive', async () => {
    const counted = recordStatements(opened.sqlite);
    try {
      await pingsAsReceived(opened.db, named);
    } finally {
      counted.restore();
    }
    expect(counted.byTable()).toEqual({
      pings: 1,
      users: 1,
      reactions: 1,
      moments: 1,
    });
  });

  it('reads nothing further when nobody received any of them', async () => {
    const counted = recordStatements(opened.sqlite);
    try {
      const got = await pingsAsReceived(
        opened.db,
        new Map([
          ['ann', ['p1', 'p4']],
          ['cat', ['p2']],
        ]),
      );
      expect(got.size).toBe(0);
    } finally {
      counted.restore();
    }
    expect(counted.byTable()).toEqual({ pings: 1 });
  });
});

/**
 * A ping as `viewer` should see it, put together from each table's own rows, one plain read at
 * a time: the oracle loadPings and findPingAsSeen are held to.
 */
async function expectedPing(viewer: string, id: string): Promise<Ping | undefined> {
  const { db } = opened;
  const p = await db.selectFrom('pings').selectAll().where('id', '=', id).executeTakeFirst();
  if (!p || (p.senderId !== viewer && p.receiverId !== viewer)) return undefined;
  const person = async (userId: string) =>
    (await db
      .selectFrom('users')
      .select(['id', 'firstName', 'lastName', 'profileImageUrl'])
      .where('id', '=', userId)
      .executeTakeFirst()) ?? {
      id: userId,
      firstName: null,
      lastName: null,
      profileImageUrl: null,
    };
  const blocks = (await db.selectFrom('blocks').selectAll().execute()).filter(
    (b) =>
      (b.blockerId === p.senderId && b.blockedId === p.receiverId) ||
      (b.blockerId === p.receiverId && b.blockedId === p.senderId),
  );
  const since = blocks.map((b) => b.createdAt).sort()[0];
  // A read mark made after a block is the reader's alone: the sender sees the ping unread.
  const hidden =
    viewer === p.senderId && p.readAt !== null && since !== undefined && p.readAt >= since;
  const bookmark = await db
    .selectFrom('moments')
    .select('id')
    .where('userId', '=', viewer)
    .where('pingId', '=', id)
    .executeTakeFirst();
  const reactions = (
    await db.selectFrom('reactions').selectAll().where('pingId', '=', id).execute()
  ).sort((a, b) => (a.createdAt + a.id < b.createdAt + b.id ? -1 : 1));
  return {
    id,
    kind: p.kind,
    senderId: p.senderId,
    receiverId: p.receiverId,
    sender: await person(p.senderId),
    receiver: await person(p.receiverId),
    prompt:
      p.promptText !== null ? { id: p.promptId, text: p.promptText, emoji: p.promptEmoji! } : null,
    customText: p.customText,
    customEmoji: p.customEmoji,
    anchorId: p.anchorId,
    groupId: p.groupId,
    createdAt: p.createdAt,
    writtenAt: p.writtenAt ?? p.createdAt,
    isRead: hidden ? false : p.isRead === 1,
    readAt: hidden ? null : p.readAt,
    isBookmarked: bookmark !== undefined,
    reactions,
  };
}

describe.each(['one statement', 'table'] as const)('loadPings by %s', (how) => {
  const ids = ['p5', 'p1', 'unknown', 'p3', 'p2', 'p4'];
  const viewers = ['ann', 'ben', 'cat', 'dan', 'eve'];
  const load = (viewer: string, asked: string[]) => loadPingsBy(how, opened.db, viewer, asked);

  async function expectEveryViewerSeesTheOracle() {
    for (const viewer of viewers) {
      const expected = (await Promise.all(ids.map((id) => expectedPing(viewer, id)))).filter(
        (p) => p !== undefined,
      );
      expect(await load(viewer, ids), viewer).toEqual(expected);
    }
  }

  it('answers each person the pings they sent or received, in the order asked', async () => {
    ran.length = 0;
    const ben = await load('ben', ids);
    // By table: the pings, their people, reactions, bookmarks, and the blocks between Ben and
    // Ann, who read the ping he sent her (p3).
    expect(ran).toHaveLength(how === 'one statement' ? 1 : 5);
    expect(ben.map((p) => p.id)).toEqual(['p1', 'p3', 'p2']);
    expect(ben[0]!.reactions.map((r) => r.id)).toEqual(['r1', 'r2']);
    await expectEveryViewerSeesTheOracle();
  });

  it('hides from its sender a read mark made after a block between the two, either way, and no other', async () => {
    // Ann read p3 (from Ben) at 9. A block from before it hides the read from Ben; one after not.
    for (const [blockerId, blockedId, n, hiddenFromBen] of [
      ['ann', 'ben', 5, true],
      ['ben', 'ann', 5, true],
      ['ann', 'ben', 20, false],
    ] as const) {
      await opened.db
        .insertInto('blocks')
        .values({ blockerId, blockedId, createdAt: at(n) })
        .execute();
      try {
        const [seen] = await load('ben', ['p3']);
        expect(seen!.isRead, `${blockerId} blocked ${blockedId} at ${n}`).toBe(!hiddenFromBen);
        expect((await load('ann', ['p3']))[0]!.isRead).toBe(true);
        await expectEveryViewerSeesTheOracle();
      } finally {
        await opened.db.deleteFrom('blocks').execute();
      }
    }
  });
});

describe('findPingAsSeen', () => {
  // Every ping with each of its two people as the viewer.
  const seen: [id: string, viewer: string][] = [
    ['p1', 'ann'],
    ['p1', 'ben'],
    ['p2', 'ben'],
    ['p2', 'cat'],
    ['p3', 'ann'],
    ['p3', 'ben'],
    ['p4', 'dan'],
  ];

  it.each(seen)('answers %s to %s as loadPings does', async (id, viewer) => {
    const found = await findPingAsSeen(opened.db, id, viewer);
    expect(found?.ping.id).toBe(id);
    expect(found!.blocked).toBe(false);
    const [loaded] = await loadPings(opened.db, viewer, [id]);
    expect(await found!.asSeen()).toEqual(loaded);
  });

  it('reads the ping, its people, the bookmark and the reactions in one statement, and nothing after', async () => {
    const counted = recordStatements(opened.sqlite);
    try {
      const found = await findPingAsSeen(opened.db, 'p1', 'ann');
      expect(counted.sources).toHaveLength(1);
      expect(counted.sources[0]).toMatch(/from "pings" as "p"/);
      const p = await found!.asSeen();
      expect([p.isBookmarked, p.sender.firstName, p.reactions.map((r) => r.id)]).toEqual([
        true,
        'ann',
        ['r1', 'r2'],
      ]);
    } finally {
      counted.restore();
    }
    expect(counted.sources).toHaveLength(1);
  });

  it('answers a reaction as loadPings reads it back after it replaced the viewer’s or added one', async () => {
    // Ann replaces her reaction on p1 (Ben's stays); Ben adds the first one on p2.
    for (const [pingId, viewer, id] of [
      ['p1', 'ann', 'r9'],
      ['p2', 'ben', 'r8'],
    ] as const) {
      const found = await findPingAsSeen(opened.db, pingId, viewer);
      const reaction = {
        id,
        pingId,
        userId: viewer,
        reactionType: 'heart' as const,
        createdAt: new Date().toISOString(),
      };
      await replaceReaction(opened.db, reaction);
      try {
        const answer = await found!.asSeen({ reaction });
        const [loaded] = await loadPings(opened.db, viewer, [pingId]);
        expect(answer).toEqual(loaded);
        expect(answer.reactions.filter((r) => r.userId === viewer)).toEqual([reaction]);
      } finally {
        await opened.db.deleteFrom('reactions').where('id', '=', id).execute();
      }
    }
    await opened.db
      .insertInto('reactions')
      .values({ id: 'r2', pingId: 'p1', userId: 'ann', reactionType: 'wow', createdAt: at(7) })
      .execute();
  });

  it('says whether a reaction id is taken on another ping, and only then', async () => {
    const taken = async (pingId: string, reactionId?: string) =>
      (await findPingAsSeen(opened.db, pingId, 'ann', reactionId))!.reactionIdElsewhere;
    // r3 is Ann's reaction on p3; r1 is Ben's on p1.
    expect(await taken('p1', 'r3')).toBe(true);
    expect(await taken('p3', 'r1')).toBe(true);
    expect(await taken('p3', 'r3')).toBe(false);
    expect(await taken('p1', 'r1')).toBe(false);
    expect(await taken('p1', 'unknown')).toBe(false);
    expect(await taken('p1')).toBe(false);
  });

  it('says whether a block stands between its people, whoever blocked', async () => {
    await opened.db
      .insertInto('blocks')
      .values({ blockerId: 'cat', blockedId: 'dan', createdAt: at(10) })
      .execute();
    try {
      expect((await findPingAsSeen(opened.db, 'p5', 'dan'))?.blocked).toBe(true);
      expect((await findPingAsSeen(opened.db, 'p5', 'cat'))?.blocked).toBe(true);
      expect((await findPingAsSeen(opened.db, 'p4', 'dan'))?.blocked).toBe(false);
    } finally {
      await opened.db.deleteFrom('blocks').execute();
    }
  });

  it('answers a read mark and a bookmark as loadPings reads them back after the write', async () => {
    const found = await findPingAsSeen(opened.db, 'p4', 'dan');
    expect(found!.ping.isRead).toBe(0);
    const readAt = await markRead(opened.db, 'p4', 'dan');
    await opened.db
      .insertInto('moments')
      .values({
        id: 'm3',
        userId: 'dan',
        pingId: 'p4',
        title: 't',
        description: null,
        createdAt: at(11),
      })
      .execute();
    try {
      expect(readAt).toBeDefined();
      expect(await markRead(opened.db, 'p4', 'dan')).toBeUndefined();
      const answer = await found!.asSeen({ isRead: 1, readAt: readAt!, bookmarked: true });
      expect(answer).toEqual((await loadPings(opened.db, 'dan', ['p4']))[0]);
      expect([answer.isRead, answer.readAt, answer.isBookmarked]).toEqual([true, readAt, true]);
    } finally {
      await opened.db.deleteFrom('moments').where('id', '=', 'm3').execute();
      await opened.db
        .updateTable('pings')
        .set({ isRead: 0, readAt: null })
        .where('id', '=', 'p4')
        .execute();
    }
  });

  it('hides a read mark made after a block from the sender, as loadPings does', async () => {
    // Ann received p3 from Ben and read it at 9, after she blocked him at 5.
    await opened.db
      .insertInto('blocks')
      .values({ blockerId: 'ann', blockedId: 'ben', createdAt: at(5) })
      .execute();
    try {
      for (const viewer of ['ben', 'ann']) {
        const found = await findPingAsSeen(opened.db, 'p3', viewer);
        expect(found!.blocked).toBe(true);
        const answer = await found!.asSeen();
        expect(answer, viewer).toEqual((await loadPings(opened.db, viewer, ['p3']))[0]);
        expect(answer.isRead, viewer).toBe(viewer === 'ann');
      }
    } finally {
      await opened.db.deleteFrom('blocks').execute();
    }
  });

  it('finds nothing for an unknown id', async () => {
    expect(await findPingAsSeen(opened.db, 'unknown', 'ann')).toBeUndefined();
  });
});

describe('markAllRead', () => {
  it('marks every unread ping of the receiver read in one statement, each with whether a block stands', async () => {
    // Ben received p1 from Ann and p2 from Cat, both unread; Ben blocked Cat.
    await opened.db
      .insertInto('blocks')
      .values({ blockerId: 'ben', blockedId: 'cat', createdAt: at(10) })
      .execute();
    try {
      ran.length = 0;
      const changed = await markAllRead(opened.db, 'ben');
      expect(ran).toHaveLength(1);
      expect(changed.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: 'p1', senderId: 'ann', blocked: false },
        { id: 'p2', senderId: 'cat', blocked: true },
      ]);
      const rows = await opened.db
        .selectFrom('pings')
        .select(['id', 'isRead', 'readAt'])
        .where('receiverId', '=', 'ben')
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.id, r.isRead, r.readAt !== null])).toEqual([
        ['p1', 1, true],
        ['p2', 1, true],
      ]);
      // Nothing unread is left: nothing more to mark.
      expect(await markAllRead(opened.db, 'ben')).toEqual([]);
    } finally {
      await opened.db.deleteFrom('blocks').execute();
      await opened.db
        .updateTable('pings')
        .set({ isRead: 0, readAt: null })
        .where('id', 'in', ['p1', 'p2'])
        .execute();
    }
  });
});
