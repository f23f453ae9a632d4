/**
 * What committed writes tell the rest of the process: which people's data changed (the ws hub
 * pokes their sockets) and which pings were just delivered (new_ping, Web Push). Emitted only
 * after the transaction commits (db/unit-of-work.ts), so a listener never announces a change that
 * was rolled back. Before the commit, the parts that must commit with the writes (the hints for
 * the other nodes, the pushes to send) add their rows to the transaction (`beforeCommit`).
 */
import { EventEmitter } from 'node:events';
import type { Ping } from '@pingme/shared';
import type { Db } from '../db/connection';
import type { Announcer, ChangeSet } from '../db/unit-of-work';

export interface ChangeEventMap {
  changed: [userIds: string[]];
  newPing: [receiverId: string, ping: Ping];
  /** Push subscriptions changed (push routes): `added` now has one; `others` may have none. */
  subscriptionsChanged: [added: string[], others: string[]];
  /** The change numbers this process just committed, per person (realtime/relay.ts). */
  committed: [numbers: ReadonlyMap<string, readonly number[]>];
  /** The push jobs this process just committed (push/notifier.ts sends them). */
  pushJobs: [ids: string[]];
}

export type BeforeCommit = (
  trx: Db,
  sets: readonly ChangeSet[],
  newest: ReadonlyMap<string, number>,
) => Promise<void>;

export class ChangeEvents extends EventEmitter<ChangeEventMap> implements Announcer {
  private readonly beforeCommits: BeforeCommit[] = [];

  /** Work done in every write's transaction just before it commits. */
  addBeforeCommit(fn: BeforeCommit): void {
    this.beforeCommits.push(fn);
  }

  async beforeCommit(
    trx: Db,
    sets: readonly ChangeSet[],
    newest: ReadonlyMap<string, number>,
  ): Promise<void> {
    for (const fn of this.beforeCommits) await fn(trx, sets, newest);
  }

  /**
   * The change sets of one commit: each delivered ping, the push jobs, the change numbers, then
   * one poke list. (An anchor request reaches its person as a poke and a push job, written before
   * the commit by the notifier: no event of its own.)
   */
  announce(sets: readonly ChangeSet[]): void {
    const affected = new Set<string>();
    const numbers = new Map<string, number[]>();
    const pushJobs: string[] = [];
    for (const set of sets) {
      for (const [receiverId, ping] of set.newPings) this.emit('newPing', receiverId, ping);
      for (const id of set.affected) affected.add(id);
      for (const [userId, seqs] of set.numbers) {
        const list = numbers.get(userId);
        if (list) list.push(...seqs);
        else numbers.set(userId, [...seqs]);
      }
      pushJobs.push(...set.pushJobs);
    }
    if (pushJobs.length) this.emit('pushJobs', pushJobs);
    if (numbers.size) this.emit('committed', numbers);
    if (affected.size) this.emit('changed', [...affected]);
  }
}
