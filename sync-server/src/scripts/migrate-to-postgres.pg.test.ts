/**
 * `npm run migrate-to-postgres`: a community that started on SQLite moves to PostgreSQL without
 * losing anything. A real SQLite server is used through the API, stopped, copied into an empty
 * PostgreSQL database, and a server on PostgreSQL then answers the same people the same things:
 * their sessions still work (the secrets moved too), their devices' cursors still mean what they
 * meant (no snapshot, nothing missed), and every table's count and checksum matched. A second
 * copy into the same database is refused, and so is a bad command line.
 */
import { rmSync } from 'node:fs';
import type { PullResponse } from '@pingme/shared';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { makeFriends, makeUser, pullAll, startTestServer } from '../../test/harness';
import { createDatabase, dropDatabase } from '../../test/postgres';
import { migrateToPostgres, parseArgs } from './migrate-to-postgres';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

describe('npm run migrate-to-postgres', () => {
  it('copies a SQLite deployment into an empty PostgreSQL database that then serves the same people', async () => {
    // On SQLite (DATABASE_URL empty): two friends, pings, a reaction, a device's cursor.
    const lite = await startTestServer({ DATABASE_URL: '' });
    const ann = await makeUser(lite, { firstName: 'Ann' });
    const ben = await makeUser(lite, { firstName: 'Ben' });
    await makeFriends(ann, ben);
    const first = await ann.client.post('/api/pings/custom', {
      receiverId: ben.id,
      customText: 'one',
    });
    const second = await ben.client.post('/api/pings/custom', {
      receiverId: ann.id,
      customText: 'two',
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(
      (await ann.client.post(`/api/pings/${second.body.id}/reactions`, { reactionType: 'yes' }))
        .status,
    ).toBe(201);
    const annDevice = await pullAll(ann.client);
    const file = lite.config.dbFile;
    await lite.close();
    cleanup.push(async () => rmSync(lite.dir, { recursive: true, force: true }));

    const target = await createDatabase(inject('postgres').adminUrl);
    cleanup.push(() => dropDatabase(target));
    const lines: string[] = [];
    await migrateToPostgres(['--from', file, target], {}, (l) => lines.push(l));
    expect(lines.filter((l) => l.startsWith('DIFF'))).toEqual([]);
    for (const table of [
      'users',
      'pings',
      'reactions',
      'friendships',
      'changes',
      'change_counters',
    ]) {
      expect(
        lines.some((l) => l.startsWith('ok') && l.includes(` ${table} `)),
        table,
      ).toBe(true);
    }
    expect(lines.at(-1)).toMatch(/every count and checksum the same/);

    // The same people on PostgreSQL: still signed in, nothing new since their cursor.
    const big = await startTestServer({ DATABASE_URL: target });
    cleanup.push(() => big.stop());
    const annThere = ann.client.via(big.url);
    expect((await annThere.get('/api/user')).status).toBe(200);
    const since = await annThere.get<PullResponse>(`/api/sync/pull?since=${annDevice.cursor}`);
    expect(since.body).toMatchObject({ reset: false, changes: [], cursor: annDevice.cursor });
    const snapshot = await pullAll(annThere);
    const pings = snapshot.changes.filter((c) => c.entity === 'ping').map((c) => c.id);
    expect(pings.sort()).toEqual([first.body.id, second.body.id].sort());
    // And the log goes on from there: a new ping is the next number.
    const third = await ben.client
      .via(big.url)
      .post('/api/pings/custom', { receiverId: ann.id, customText: 'three' });
    expect(third.status).toBe(201);
    const next = await pullAll(annThere, annDevice.cursor);
    expect(next.changes.map((c) => c.id)).toContain(third.body.id);
    expect(next.cursor).toBeGreaterThan(annDevice.cursor);

    // Not into a database that has data.
    await expect(
      migrateToPostgres(['--from', file, target], {}, () => undefined),
    ).rejects.toMatchObject({
      code: 1,
      message: expect.stringMatching(/not empty: its table \w+ has \d+ row/),
    });
  });

  it('refuses a bad command line with usage (exit 2)', () => {
    for (const argv of [
      [],
      ['--from'],
      ['--fast', 'postgres://x/y'],
      ['a.sqlite', 'b'],
      ['mysql://x/y'],
    ]) {
      expect(() => parseArgs(argv, {}), argv.join(' ')).toThrow(
        expect.objectContaining({ code: 2, message: expect.stringContaining('Usage:') }),
      );
    }
    expect(parseArgs([], { DATABASE_URL: 'postgres://h/db' }).to).toBe('postgres://h/db');
  });
});
