import 'fake-indexeddb/auto';
import { SYNC_ENTITIES } from '@pingme/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { enqueueWrite } from '../sync/outbox';
import { clearPersonalData, db, ensureDeviceId, getMeta, setMeta } from './index';
import { SCHEMA_VERSIONS } from './schema';

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
});

describe('device database', () => {
  it('has the meta, outbox and cache tables and one table per sync entity', () => {
    const names = db.tables.map((t) => t.name).sort();
    const entityTables = SYNC_ENTITIES.map((e) => `${e}s`);
    expect(names).toEqual(['cache', 'meta', 'outbox', ...entityTables].sort());
    expect(db.verno).toBe(SCHEMA_VERSIONS.at(-1)!.version);
  });

  it('keeps one device id', async () => {
    const first = await ensureDeviceId();
    expect(await ensureDeviceId()).toBe(first);
    expect(await getMeta('deviceId')).toBe(first);
  });

  it('appends outbox entries in order, inside the caller’s transaction, each with its key', async () => {
    await db.transaction('rw', db.outbox, async () => {
      await enqueueWrite({ method: 'POST', path: '/api/pings', body: { n: 1 } });
      await enqueueWrite({ method: 'POST', path: '/api/pings', body: { n: 2 } });
    });
    const rows = await db.outbox.orderBy('seq').toArray();
    expect(rows.map((r) => (r.body as { n: number }).n)).toEqual([1, 2]);
    expect(rows.every((r) => r.status === 'pending' && r.attempts === 0)).toBe(true);
    expect(new Set(rows.map((r) => r.idempotencyKey)).size).toBe(2);

    // A transaction that fails leaves no entry behind (durable before visible).
    await db
      .transaction('rw', db.outbox, async () => {
        await enqueueWrite({ method: 'POST', path: '/api/pings', body: { n: 3 } });
        throw new Error('the write failed');
      })
      .catch(() => undefined);
    expect(await db.outbox.count()).toBe(2);
  });

  it('forgets a person’s data on sign-out but keeps the device id', async () => {
    const deviceId = await ensureDeviceId();
    await setMeta('cursor', 42);
    await db.transaction('rw', db.outbox, () =>
      enqueueWrite({ method: 'DELETE', path: '/api/prompts/x' }),
    );
    await clearPersonalData();
    expect(await db.outbox.count()).toBe(0);
    expect(await getMeta('cursor')).toBeUndefined();
    expect(await getMeta('deviceId')).toBe(deviceId);
  });
});
