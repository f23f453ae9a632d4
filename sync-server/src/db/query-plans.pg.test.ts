/**
 * The reads that find rows by their ids, as PostgreSQL plans them once a prepared statement runs
 * on its generic plan (the server's statements are named, so after a few runs PostgreSQL plans
 * them once, without their values). Such a plan cannot see that the viewer is a heavy person: if
 * the check "the viewer sent or received it" could use the people's indexes, a pull of a few new
 * pings would be planned as a read of every ping the viewer ever sent or received, filtered by the
 * ids. Each read here must find its rows by their primary key and check the viewer on each row
 * found (`checkedOnEachRow` in db/chunks.ts, `involvesEach` in db/two-people.ts).
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase } from '../../test/postgres';
import { personRow, pingRow } from '../../test/rows';
import { openDatabase, type OpenedDb } from './connection';
import { loadAnchors } from './anchors';
import { loadMoments } from './moments';
import { loadMoods } from './moods';
import { loadPings } from './pings';
import { friendshipsOfViewer } from './sync-views';

let url: string;
let opened: OpenedDb;
/** Every statement the pool ran, with its values. */
const ran: { text: string; values: unknown[] }[] = [];
const at = (n: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, 0) + n * 1000).toISOString();

/** People with a few pings each, and Ann with many: the shape of a real server. */
const OTHERS = 3000;
const ANNS = 1500;

beforeAll(async () => {
  url = await createDatabase(inject('postgres').adminUrl);
  opened = await openDatabase(url, { poolSize: 1 });
  opened.pool!.on('acquire', (client: pg.PoolClient) => {
    const c = client as pg.PoolClient & { recorded?: true };
    if (c.recorded) return;
    c.recorded = true;
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as { query: unknown }).query = (...a: unknown[]) => {
      const q = a[0] as string | { text: string; values?: unknown[] };
      if (typeof q === 'object') ran.push({ text: q.text, values: q.values ?? [] });
      else ran.push({ text: q, values: (a[1] as unknown[] | undefined) ?? [] });
      return query(...a);
    };
  });
  const { db } = opened;
  const others = Array.from({ length: OTHERS }, (_, i) => `p${i}`);
  await db
    .insertInto('users')
    .values(['ann', ...others].map((id) => personRow(id, at(0))))
    .execute();
  const pings = [
    ...others.flatMap((id, i) => [
      pingRow(`${id}-a`, id, others[(i + 1) % OTHERS]!, at(i)),
      pingRow(`${id}-b`, others[(i + 2) % OTHERS]!, id, at(i)),
    ]),
    ...Array.from({ length: ANNS }, (_, i) =>
      i % 2
        ? pingRow(`ann-${i}`, 'ann', others[i % OTHERS]!, at(i))
        : pingRow(`ann-${i}`, others[i % OTHERS]!, 'ann', at(i)),
    ),
  ];
  for (let i = 0; i < pings.length; i += 500) {
    await db
      .insertInto('pings')
      .values(pings.slice(i, i + 500))
      .execute();
  }
  await db
    .insertInto('moods')
    .values(
      Array.from({ length: ANNS }, (_, i) => ({
        id: `mood-${i}`,
        userId: i % 2 ? 'ann' : others[i % OTHERS]!,
        friendId: i % 2 ? others[i % OTHERS]! : 'ann',
        mood: 'happy',
        emoji: '😊',
        note: null,
        createdAt: at(i),
      })),
    )
    .execute();
  // Ann is part of one friendship and one anchor with each other person; the others of two each.
  const pairs = others.flatMap((id, i) => [
    ['ann', id, `ann-${id}`],
    [id, others[(i + 1) % OTHERS]!, `${id}-next`],
  ]);
  await db
    .insertInto('friendships')
    .values(
      pairs.map(([requesterId, addresseeId, id]) => ({
        id: `friendship-${id}`,
        requesterId: requesterId!,
        addresseeId: addresseeId!,
        status: 'accepted' as const,
        createdAt: at(0),
        acceptedAt: at(1),
      })),
    )
    .execute();
  await db
    .insertInto('anchors')
    .values(
      pairs.map(([userId, friendId, id]) => ({
        id: `anchor-${id}`,
        userId: userId!,
        friendId: friendId!,
        label: null,
        text: 'Call me when you land',
        emoji: '✈️',
        color: 'blue',
        status: 'accepted' as const,
        createdAt: at(0),
        respondedAt: at(1),
      })),
    )
    .execute();
  await db
    .insertInto('moments')
    .values(
      [
        ...Array.from({ length: ANNS }, (_, i) => ['ann', `ann-${i}`]),
        ...others.map((id) => [id, `${id}-a`]),
      ].map(([userId, pingId]) => ({
        id: `moment-${pingId}`,
        userId: userId!,
        pingId: pingId!,
        title: 'kept',
        description: null,
        createdAt: at(0),
      })),
    )
    .execute();
  await opened.pool!.query('analyze');
});
afterAll(async () => {
  await opened?.close();
  await dropDatabase(url);
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The indexes a plan searches on `table` (a scan of the table without one counts as `scan`). */
function indexesOn(node: PlanNode, table: string, found = new Set<string>()): Set<string> {
  const index = node['Index Name'];
  if (node['Relation Name'] === table && node['Node Type'] === 'Seq Scan') found.add('scan');
  if (index && (node['Relation Name'] === table || index.startsWith(`${table}_`))) found.add(index);
  for (const child of node.Plans ?? []) indexesOn(child, table, found);
  return found;
}

/**
 * The generic plan of the statement `read` ran whose text starts with `start`: prepared again on a
 * connection of its own with plan_cache_mode = force_generic_plan, and explained with the values
 * it ran with.
 */
async function genericPlan(read: () => Promise<unknown>, start: string): Promise<PlanNode> {
  ran.length = 0;
  await read();
  const statement = ran.find((r) => r.text.startsWith(start));
  expect(statement, `a statement starting with ${start}`).toBeDefined();
  const client = await opened.pool!.connect();
  try {
    await client.query('set plan_cache_mode = force_generic_plan');
    await client.query(`prepare generic as ${statement!.text}`);
    const values = statement!.values.map((v) => client.escapeLiteral(String(v))).join(', ');
    const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `explain (format json) execute generic(${values})`,
    );
    return rows[0]!['QUERY PLAN'][0]!.Plan;
  } finally {
    await client.query('deallocate generic').catch(() => {});
    await client.query('reset plan_cache_mode');
    client.release();
  }
}

describe('reads by id on their generic plan (PostgreSQL)', () => {
  const annsIds = Array.from({ length: 40 }, (_, i) => `ann-${i}`);

  it("a pull's pings: by their primary key, not every ping of the viewer", async () => {
    const plan = await genericPlan(() => loadPings(opened.db, 'ann', annsIds), 'select "p".*');
    expect([...indexesOn(plan, 'pings')]).toEqual(['pings_pkey']);
    expect(await loadPings(opened.db, 'ann', annsIds)).toHaveLength(annsIds.length);
  });

  const annsOthers = Array.from({ length: 40 }, (_, i) => `ann-p${i}`);
  it.each([
    ['moods', Array.from({ length: 40 }, (_, i) => `mood-${i}`), loadMoods],
    ['friendships', annsOthers.map((id) => `friendship-${id}`), friendshipsOfViewer],
    ['anchors', annsOthers.map((id) => `anchor-${id}`), loadAnchors],
    ['moments', annsIds.map((id) => `moment-${id}`), loadMoments],
  ] as const)(
    "a pull's %s: by their primary key, not every row of the viewer",
    async (table, ids, load) => {
      const plan = await genericPlan(() => load(opened.db, 'ann', [...ids]), 'select');
      expect([...indexesOn(plan, table)]).toEqual([`${table}_pkey`]);
      expect(await load(opened.db, 'ann', [...ids])).toHaveLength(ids.length);
    },
  );
});
