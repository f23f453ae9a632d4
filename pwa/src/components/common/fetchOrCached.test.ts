/**
 * fetchOrCached (the friend screens' stats, the friendship insights): the network first, kept in
 * Dexie's cache table; when the fetch fails, the copy kept last time with its time; a failure
 * that may not fall back, or nothing kept, is the fetch's own error.
 */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../db';
import { readCache, writeCache } from '../../sync/local-write';
import { fetchOrCached } from './fetchOrCached';

const offline = new Error('offline');
const fail = () => Promise.reject(offline);

beforeEach(async () => {
  await db.cache.clear();
});

describe('fetchOrCached', () => {
  it('answers the fresh value and keeps it, with the time it says it was computed', async () => {
    const got = await fetchOrCached('k', async () => ({ n: 1, at: '2026-11-01T10:00:00.000Z' }), {
      computedAt: (v) => v.at,
    });
    expect(got).toEqual({ value: { n: 1, at: '2026-11-01T10:00:00.000Z' }, cachedAt: null });
    expect(await readCache('k')).toEqual({
      value: { n: 1, at: '2026-11-01T10:00:00.000Z' },
      computedAt: '2026-11-01T10:00:00.000Z',
    });
  });

  it('answers the kept copy and its time when the fetch fails', async () => {
    await writeCache('k', { n: 2 }, '2026-11-02T08:00:00.000Z');
    expect(await fetchOrCached('k', fail)).toEqual({
      value: { n: 2 },
      cachedAt: '2026-11-02T08:00:00.000Z',
    });
  });

  it("rethrows the fetch's error when nothing is kept, or when the error may not fall back", async () => {
    await expect(fetchOrCached('nothing-kept', fail)).rejects.toBe(offline);
    await writeCache('k', { n: 3 });
    const notFriend = new Error('404');
    await expect(
      fetchOrCached('k', () => Promise.reject(notFriend), { fallBack: (e) => e !== notFriend }),
    ).rejects.toBe(notFriend);
  });

  it('answers the fresh value even when keeping it fails', async () => {
    await writeCache('k', { n: 4 }, '2026-11-03T08:00:00.000Z');
    db.close();
    try {
      expect(await fetchOrCached('k', async () => ({ n: 5 }))).toEqual({
        value: { n: 5 },
        cachedAt: null,
      });
    } finally {
      await db.open();
    }
    expect((await readCache('k'))?.value).toEqual({ n: 4 });
  });
});
