/**
 * The Dexie upgrade to version 4: outbox rows queued by an older app as REST calls become named
 * mutations whose REST call is exactly the one queued (so the server's request hash, and with it
 * an answer it already stored under the entry's key, is the same); rows that do not convert stay
 * as they were and are still sent.
 */
import 'fake-indexeddb/auto';
import { restCall, type MutationArgs, type MutationName } from '@pingme/shared';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { PingMeDb } from './index';
import { SCHEMA_VERSIONS, namedOfRestRow } from './schema';

const NAME = 'pingme-upgrade-test';
const PING = '0190a000-0000-7000-8000-000000000001';
const FRIEND = '0190a000-0000-7000-8000-000000000002';
const PROMPT = '0190a000-0000-7000-8000-000000000003';

afterEach(async () => {
  await Dexie.delete(NAME);
});

/** What an app before version 4 queued: its REST calls, in order. */
const OLD_ROWS = [
  { method: 'POST', path: '/api/pings', body: { id: PING, promptId: PROMPT, receiverId: FRIEND } },
  // Key order that no schema has: the upgrade must keep it as it is.
  {
    method: 'POST',
    path: '/api/pings/custom',
    body: { customText: 'Hi', receiverId: FRIEND, id: PING, customEmoji: '🌟' },
  },
  {
    method: 'POST',
    path: `/api/pings/${PING}/reactions`,
    body: { id: FRIEND, reactionType: 'wow' },
  },
  { method: 'PATCH', path: `/api/pings/${PING}/read`, body: {} },
  { method: 'DELETE', path: `/api/prompts/${PROMPT}`, body: {} },
  // No mutation has this path, and this body is not an object: both stay as they are.
  { method: 'POST', path: '/api/nothing-here', body: {} },
  { method: 'PUT', path: '/api/profile/update', body: ['not', 'an', 'object'] },
];

async function queueWithVersion3(rows: readonly object[]) {
  const old = new Dexie(NAME);
  for (const v of SCHEMA_VERSIONS.filter((v) => v.version <= 3)) {
    old.version(v.version).stores(v.stores);
  }
  await old.open();
  for (const [i, row] of rows.entries()) {
    const id = `0190a000-0000-7000-8000-00000000010${i}`;
    await old.table('outbox').add({
      id,
      idempotencyKey: id,
      createdAt: '2026-11-20T10:00:00.000Z',
      attempts: 0,
      status: 'pending',
      effects: i === 0 ? [{ table: 'pings', key: PING, before: null, after: { id: PING } }] : [],
      userId: FRIEND,
      ...row,
    });
  }
  old.close();
}

describe('Dexie version 4: the outbox holds named mutations', () => {
  it('converts each REST call to its mutation, whose REST call is the very one queued', async () => {
    await queueWithVersion3(OLD_ROWS);
    const db = new PingMeDb(NAME);
    const rows = (await db.outbox.orderBy('seq').toArray()) as unknown as Record<string, unknown>[];

    expect(rows.map((r) => r.name ?? null)).toEqual([
      'ping.send',
      'ping.sendCustom',
      'ping.react',
      'ping.markRead',
      'prompt.delete',
      null,
      null,
    ]);
    for (const [i, row] of rows.slice(0, 5).entries()) {
      const old = OLD_ROWS[i]!;
      expect(row).not.toHaveProperty('method');
      expect(row).not.toHaveProperty('path');
      expect(row).not.toHaveProperty('body');
      // What the server hashes: method, filled path and the JSON of the body, byte for byte.
      const call = restCall(row.name as MutationName, row.args as MutationArgs<MutationName>);
      expect([call.method, call.path, JSON.stringify(call.body)]).toEqual([
        old.method,
        old.path,
        JSON.stringify(old.body),
      ]);
      // The rest of the entry is untouched.
      expect(row).toMatchObject({ idempotencyKey: row.id, userId: FRIEND, status: 'pending' });
    }
    // Indexed by the rows they hold, for the drain.
    expect(rows.map((r) => r.rows)).toEqual([[`pings:${PING}`], [], [], [], [], [], []]);
    expect(await db.outbox.where('rows').equals(`pings:${PING}`).count()).toBe(1);
    // Unparsed, in the order written: the body's fields, then the path's parameters.
    expect(Object.keys(rows[1]!.args as object)).toEqual([
      'customText',
      'receiverId',
      'id',
      'customEmoji',
    ]);
    expect(rows[2]!.args).toEqual({ id: FRIEND, reactionType: 'wow', pingId: PING });
    expect(rows.slice(5)).toMatchObject(OLD_ROWS.slice(5));
    db.close();
  });

  it('leaves a row whose REST call would not come out the same', () => {
    expect(namedOfRestRow({ method: 'PATCH', path: `/api/pings/${PING}/read?x=1`, body: {} })).toBe(
      undefined,
    );
    // A body field named like a path parameter: the server refuses it either way.
    expect(
      namedOfRestRow({ method: 'PATCH', path: `/api/pings/${PING}/read`, body: { id: PING } }),
    ).toBe(undefined);
    expect(namedOfRestRow({ name: 'ping.send', args: {} })).toBe(undefined);
  });
});
