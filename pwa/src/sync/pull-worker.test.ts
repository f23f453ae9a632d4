import 'fake-indexeddb/auto';
import type { PullChange, PullQuery, PullResponse } from '@pingme/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { db, getMeta, setMeta } from '../db';
import { localWrite } from './local-write';
import { numbered, testId } from './testing';
import { getSyncMeta } from './meta';
import { BadSnapshotToken, pullAll } from './pull-worker';

const ME = 'me';

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
});

const up = (entity: PullChange['entity'], id: string, data: Record<string, unknown> = {}) =>
  ({ entity, id, op: 'upsert', data: { id, ...data } }) as PullChange;
const gone = (entity: PullChange['entity'], id: string) =>
  ({ entity, id, op: 'delete', data: null }) as PullChange;
const page = (p: Partial<PullResponse> & { changes: PullChange[] }): PullResponse => ({
  cursor: 10,
  hasMore: false,
  reset: false,
  snapshot: null,
  ...p,
});

/** A fake server answering scripted pages, recording each query. */
function server(pages: (PullResponse | Error)[]) {
  const queries: PullQuery[] = [];
  return {
    queries,
    fetchPage: async (q: PullQuery) => {
      queries.push(q);
      const next = pages.shift();
      if (!next) throw new Error('no more pages');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

describe('pull worker', () => {
  it('applies a snapshot across pages, keeping old rows until it completes, then sweeps', async () => {
    await db.users.put({ id: 'stale-friend', relation: 'friend' } as never);
    await db.pings.put({ id: 'stale-ping' } as never);
    const s = server([
      page({
        reset: true,
        hasMore: true,
        snapshot: 'tok-1',
        cursor: 42,
        changes: [up('user', ME, { relation: 'self' }), up('user', 'bo', { relation: 'friend' })],
      }),
      page({ reset: true, hasMore: false, cursor: 42, changes: [up('ping', 'p1')] }),
    ]);
    let afterFirst: unknown[] = [];
    const result = await pullAll({
      userId: ME,
      fetchPage: async (q) => {
        if (s.queries.length === 1) afterFirst = (await db.users.toArray()).map((u) => u.id).sort();
        return s.fetchPage(q);
      },
    });
    // Between the pages the device still held what it had (and the first page's rows).
    expect(afterFirst).toEqual(['bo', 'me', 'stale-friend']);
    expect(s.queries).toEqual([{}, { snapshot: 'tok-1' }]);
    expect(result).toMatchObject({ pages: 2, changes: 3, reset: true });
    expect((await db.users.toArray()).map((u) => u.id).sort()).toEqual(['bo', 'me']);
    expect((await db.pings.toArray()).map((p) => p.id)).toEqual(['p1']);
    expect(await getMeta('cursor')).toBe(42);
    expect(await getSyncMeta('pullSnapshot')).toBeUndefined();
  });

  it('resumes a snapshot where it stopped, without a cursor until its last page', async () => {
    await db.pings.put({ id: 'stale' } as never);
    const first = server([
      page({
        reset: true,
        hasMore: true,
        snapshot: 'tok-1',
        cursor: 7,
        changes: [up('ping', 'a')],
      }),
      new TypeError('Failed to fetch'),
    ]);
    await expect(pullAll({ userId: ME, fetchPage: first.fetchPage })).rejects.toThrow('fetch');
    expect(await getMeta('cursor')).toBeUndefined();
    expect(await getSyncMeta('pullSnapshot')).toMatchObject({ token: 'tok-1', cursor: 7 });
    expect(await db.pings.get('stale')).toBeDefined();

    const second = server([
      page({ reset: true, hasMore: false, cursor: 7, changes: [up('ping', 'b')] }),
    ]);
    await pullAll({ userId: ME, fetchPage: second.fetchPage });
    expect(second.queries).toEqual([{ snapshot: 'tok-1' }]);
    // 'a' was mentioned by the first page (remembered across the restart); 'stale' by none.
    expect((await db.pings.toArray()).map((p) => p.id).sort()).toEqual(['a', 'b']);
    expect(await getMeta('cursor')).toBe(7);
  });

  it('starts over when the server refuses the snapshot token, and ignores another person’s', async () => {
    await pullAll({
      userId: ME,
      fetchPage: server([
        page({ reset: true, hasMore: true, snapshot: 'tok', cursor: 3, changes: [] }),
        new Error('offline'),
      ]).fetchPage,
    }).catch(() => {});
    const s = server([
      new BadSnapshotToken('400: Invalid snapshot token'),
      page({ reset: true, cursor: 5, changes: [up('ping', 'x')] }),
    ]);
    await pullAll({ userId: ME, fetchPage: s.fetchPage });
    expect(s.queries).toEqual([{ snapshot: 'tok' }, {}]);
    expect(await getMeta('cursor')).toBe(5);

    await pullAll({
      userId: ME,
      fetchPage: server([
        page({ reset: true, hasMore: true, snapshot: 'mine', cursor: 9, changes: [] }),
        new Error('offline'),
      ]).fetchPage,
    }).catch(() => {});
    const other = server([page({ cursor: 6, changes: [] })]);
    await pullAll({ userId: 'someone-else', fetchPage: other.fetchPage });
    expect(other.queries).toEqual([{ since: 5 }]);
  });

  it('pulls changes from the cursor, page by page, storing each page’s cursor with its data', async () => {
    await setMeta('cursor', 100);
    await db.pings.bulkPut([{ id: 'p1' }, { id: 'p2' }] as never);
    const s = server([
      page({ hasMore: true, cursor: 150, changes: [gone('ping', 'p1'), up('mood', 'm1')] }),
      page({ hasMore: false, cursor: 180, changes: [up('ping', 'p2', { isRead: true })] }),
    ]);
    let cursorBetween: number | undefined;
    await pullAll({
      userId: ME,
      limit: 2,
      fetchPage: async (q) => {
        if (s.queries.length === 1) cursorBetween = await getMeta('cursor');
        return s.fetchPage(q);
      },
    });
    expect(s.queries).toEqual([
      { since: 100, limit: 2 },
      { since: 150, limit: 2 },
    ]);
    expect(cursorBetween).toBe(150);
    expect(await db.pings.get('p1')).toBeUndefined(); // tombstone
    expect(await db.pings.get('p2')).toEqual({ id: 'p2', isRead: true });
    expect(await db.moods.get('m1')).toEqual({ id: 'm1' });
    expect(await getMeta('cursor')).toBe(180);
  });

  it('re-applies a waiting write over server state, and drops `pending` once it is acknowledged', async () => {
    await setMeta('cursor', 1);
    const entry = await localWrite({
      mutation: 'ping.markRead',
      args: { id: testId(1) },
      effects: [{ table: 'pings', key: 'p1', after: { id: 'p1', isRead: true, pending: true } }],
    });
    // The server does not know the read yet: its row says unread; the waiting write wins.
    await pullAll({
      userId: ME,
      fetchPage: server([page({ cursor: 2, changes: [up('ping', 'p1', { isRead: false })] })])
        .fetchPage,
    });
    expect(await db.pings.get('p1')).toEqual({ id: 'p1', isRead: true, pending: true });

    // Acknowledged (the outbox worker deleted the entry): the next pull's row replaces it.
    await db.outbox.delete(entry.seq!);
    await pullAll({
      userId: ME,
      fetchPage: server([page({ cursor: 3, changes: [up('ping', 'p1', { isRead: true })] })])
        .fetchPage,
    });
    expect(await db.pings.get('p1')).toEqual({ id: 'p1', isRead: true });
  });

  it('keeps rows of waiting writes through a snapshot’s sweep', async () => {
    await localWrite({
      mutation: 'ping.sendCustom',
      args: numbered(2),
      effects: [{ table: 'pings', key: 'new', after: { id: 'new', pending: true } }],
    });
    await pullAll({
      userId: ME,
      fetchPage: server([page({ reset: true, cursor: 4, changes: [up('ping', 'old')] })]).fetchPage,
    });
    expect((await db.pings.toArray()).map((p) => p.id).sort()).toEqual(['new', 'old']);
  });
});
