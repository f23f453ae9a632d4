import 'fake-indexeddb/auto';
import { SYNC_ENTITIES } from '@pingme/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { localWrite } from '../sync/local-write';
import { numbered, numberOf } from '../sync/testing';
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

  it('appends outbox entries in order, each a named mutation with its own key', async () => {
    await localWrite({ mutation: 'ping.sendCustom', args: numbered(1) });
    await localWrite({ mutation: 'ping.sendCustom', args: numbered(2) });
    const rows = await db.outbox.orderBy('seq').toArray();
    expect(rows.map(numberOf)).toEqual([1, 2]);
    expect(rows.map((r) => 'name' in r && r.name)).toEqual(['ping.sendCustom', 'ping.sendCustom']);
    expect(rows.every((r) => r.status === 'pending' && r.attempts === 0)).toBe(true);
    expect(new Set(rows.map((r) => r.idempotencyKey)).size).toBe(2);
  });

  it('forgets a person’s data on sign-out but keeps the device id', async () => {
    const deviceId = await ensureDeviceId();
    await setMeta('cursor', 42);
    await localWrite({ mutation: 'ping.sendCustom', args: numbered(1) });
    await clearPersonalData();
    expect(await db.outbox.count()).toBe(0);
    expect(await getMeta('cursor')).toBeUndefined();
    expect(await getMeta('deviceId')).toBe(deviceId);
  });
});
