/**
 * What committed writes tell the rest of the process: which people's data changed (the ws hub
 * pokes their sockets) and which pings were just delivered (new_ping, Web Push). Emitted only
 * after the transaction commits (db/unit-of-work.ts), so a listener never announces a change that
 * was rolled back.
 */
import { EventEmitter } from 'node:events';
import type { Anchor, Ping } from '@pingme/shared';
import type { Announcer, ChangeSet } from '../db/unit-of-work';

export interface ChangeEventMap {
  changed: [userIds: string[]];
  newPing: [receiverId: string, ping: Ping];
  anchorRequest: [receiverId: string, anchor: Anchor];
  /** Push subscriptions changed (push routes): `added` now has one; `others` may have none. */
  subscriptionsChanged: [added: string[], others: string[]];
}

export class ChangeEvents extends EventEmitter<ChangeEventMap> implements Announcer {
  /** The change sets of one commit: each delivered ping and anchor request, then one poke list. */
  announce(sets: readonly ChangeSet[]): void {
    const affected = new Set<string>();
    for (const set of sets) {
      for (const [receiverId, ping] of set.newPings) this.emit('newPing', receiverId, ping);
      for (const [receiverId, anchor] of set.anchorRequests)
        this.emit('anchorRequest', receiverId, anchor);
      for (const id of set.affected) affected.add(id);
    }
    if (affected.size) this.emit('changed', [...affected]);
  }
}
