/**
 * The reads that keep a person's cost to their own share of the data, as SQLite plans them. Each
 * statement they prepare goes through `EXPLAIN QUERY PLAN`: it must search the index its read was
 * given, and none that narrows by a person, a pair or a time may scan the whole `pings` table or
 * change log. Each of these indexes is a page written per send, and was weighed against that
 * (docs/performance.md, "Left to do", item 1). This test fails the day one is dropped or a query
 * stops using it, when a read would start to cost a whole history (every ping a person received,
 * every ping of the server).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { personRow } from '../../test/rows';
import { adminMetrics, dailyTrends } from './admin';
import { counterAndChangesAfter } from './changes';
import { openDatabase, type OpenedDb } from './connection';
import { nthSentSince, sendTargets } from './ping-sends';
import {
  countUnread,
  findPingAsSeen,
  loadPings,
  markAllRead,
  receivedPingIds,
  visiblePingIds,
} from './pings';

let opened: OpenedDb;
/** Every statement prepared since the last `statementsOf`. */
let prepared: string[] = [];

// A database of its own for each read: the statement cache prepares a text once per database, and
// one read may run another's statements (the dashboard shows the trends).
beforeEach(async () => {
  opened = await openDatabase(':memory:');
  const now = new Date().toISOString();
  await opened.db
    .insertInto('users')
    .values([personRow('ana', now), personRow('ben', now)])
    .execute();
  // The server's statement cache (connection.ts) prepares each text once, through this method.
  const { sqlite } = opened;
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    prepared.push(source);
    return prepare(source);
  }) as typeof sqlite.prepare;
});
afterEach(() => opened.close());

/** The statements `read` prepares. */
async function statementsOf(read: () => Promise<unknown>): Promise<string[]> {
  prepared = [];
  await read();
  return [...prepared];
}

/** SQLite's plan of a statement, one line per step (its parameters bound to placeholders). */
function planOf(source: string): string[] {
  const params = (source.match(/\?/g) ?? []).map(() => 'x');
  const rows = opened.sqlite.prepare(`explain query plan ${source}`).all(...params) as {
    detail: string;
  }[];
  return rows.map((r) => r.detail);
}

/**
 * The plan's steps that read every row of pings or changes (by any alias), index or not, in a
 * read or an update.
 */
function wholeTableScans(source: string): string[] {
  const aliases = [
    ...source.matchAll(/\b(?:from|update) "?(pings|changes)"?(?: as "?(\w+)"?)?/gi),
  ].map((m) => m[2] ?? m[1]!);
  return planOf(source).filter((step) =>
    aliases.some((a) => new RegExp(`^SCAN ${a}\\b`).test(step)),
  );
}

const DAY = 24 * 3600_000;
const since = new Date(Date.now() - DAY).toISOString();

/** The reads, each with the index it is meant to search. */
const READS: [name: string, read: () => Promise<unknown>, index: string][] = [
  [
    'a send: receivers, friendship and daily count',
    () => sendTargets(opened.db, 'ana', ['ben'], since),
    'pings_sender',
  ],
  ['a send to several', () => sendTargets(opened.db, 'ana', ['ben', 'cy'], since), 'pings_sender'],
  [
    'the daily limit: when the count drops',
    () => nthSentSince(opened.db, 'ana', 'ben', since, 3),
    'pings_sender',
  ],
  ['the unread count', () => countUnread(opened.db, 'ben'), 'pings_receiver_read'],
  ['mark all read', () => markAllRead(opened.db, 'ben'), 'pings_receiver_read'],
  ['a snapshot page', () => visiblePingIds(opened.db, 'ana', 'x', 500), 'pings_receiver_id'],
  ['the received list', () => receivedPingIds(opened.db, 'ben', 20), 'pings_receiver'],
  [
    'a viewer’s pings by id, with their people, blocks, bookmarks and reactions',
    () => loadPings(opened.db, 'ana', ['x', 'y', 'z']),
    'sqlite_autoindex_pings_1',
  ],
  [
    'a write about one ping: the ping, its people, a block and the bookmark',
    () => findPingAsSeen(opened.db, 'x', 'ana'),
    'sqlite_autoindex_pings_1',
  ],
  [
    'a pull of the change log',
    () => counterAndChangesAfter(opened.db, 'ana', 10, 500),
    'sqlite_autoindex_changes_1',
  ],
  ['the admin dashboard', () => adminMetrics(opened.db), 'pings_created'],
  ['the admin trends', () => dailyTrends(opened.db, new Date()), 'pings_created'],
];

describe('reads that must not scan every ping or change', () => {
  it.each(READS)('%s', async (_name, read, index) => {
    const statements = (await statementsOf(read)).filter((s) =>
      /\b(?:from|update) "?(pings|changes)\b/i.test(s),
    );
    expect(statements.length).toBeGreaterThan(0);
    const plans = statements.map(planOf).flat();
    // The index the read exists for is the one it searches (the change log's is its primary
    // key, user and number, which SQLite names itself).
    expect(plans.some((step) => step.includes(`INDEX ${index} (`))).toBe(true);
    for (const s of statements) {
      // A count of every ping (the admin's total) reads them all by definition; any statement
      // that narrows by a person, a pair or a time searches an index instead.
      if (!/\swhere\s/i.test(s)) continue;
      expect(wholeTableScans(s), s).toEqual([]);
    }
  });
});
