/**
 * The relay's first moments with a person (realtime/relay.ts): when their first socket opens on a
 * node, the node reads where their change log stands; a change heard of on the bus during that
 * read, and counted in it, is one the device may have missed in its pull, so the socket gets a
 * poke. Run on SQLite with the hub and the bus as plain objects: the point is the order of the
 * read and the hint, which a real cluster cannot hold still.
 */
import type { Ping } from '@pingme/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDb } from '../db/connection';
import { personRow } from '../../test/rows';
import type { ChangeBus, Hint } from './bus';
import { ChangeEvents } from './events';
import type { RealtimeHub } from './hub';
import { ClusterRelay } from './relay';

let opened: OpenedDb;
let relay: ClusterRelay;
let hear: (hints: Hint[]) => void;
const pokes: string[][] = [];
const hub = {
  presence: undefined as RealtimeHub['presence'],
  people: () => [],
  poke: (userIds: string[]) => void pokes.push(userIds),
  sendNewPing: (_receiverId: string, _ping: Ping) => undefined,
};

beforeEach(async () => {
  pokes.length = 0;
  opened = await openDatabase(':memory:');
  await opened.db.insertInto('users').values(personRow('ann')).execute();
  // Ann's change log stands at 3.
  await opened.db
    .insertInto('changeCounters')
    .values({ userId: 'ann', seq: 3, floor: 0 })
    .execute();
  const bus: ChangeBus = {
    publishInTransaction: async () => undefined,
    publish: async () => undefined,
    onHints: (listener) => void (hear = listener),
    onReconnect: () => undefined,
    close: async () => undefined,
  };
  relay = new ClusterRelay({
    db: opened.db,
    hub: hub as unknown as RealtimeHub,
    events: new ChangeEvents(),
    bus,
    config: { busCatchUpMs: 3_600_000 },
  });
  relay.start();
});
afterEach(async () => {
  relay.stop();
  await opened.close();
});

/** Until the relay has read where the person's log stands. */
async function followed(userId: string) {
  for (let i = 0; i < 100 && !relay.follows(userId); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(relay.follows(userId)).toBe(true);
}

describe('a socket that opens as a change is made', () => {
  it('gets a poke when the bus told of a change the read already counted', async () => {
    hub.presence!.opened('ann');
    // The hint of Ann's change 3 arrives while her number is being read (and the read sees 3).
    hear([{ kind: 'changed', userId: 'ann', seq: 3 }]);
    await followed('ann');
    expect(pokes).toEqual([['ann']]);
  });

  it('gets nothing when nothing was heard meanwhile', async () => {
    hub.presence!.opened('ann');
    await followed('ann');
    // A hint of a change already counted, after the read: older than what the socket follows.
    hear([{ kind: 'changed', userId: 'ann', seq: 3 }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pokes).toEqual([]);
  });
});
