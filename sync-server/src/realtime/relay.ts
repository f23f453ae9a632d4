/**
 * Live delivery across nodes (docs/deploy.md): each node pushes to its own sockets from the
 * change log. Another node's write reaches this one as a hint on the bus (realtime/bus.ts: person,
 * newest change number); for the people with a socket open here, this node reads their change
 * rows after the last number it delivered, loads the pings delivered to them (rows with op
 * 'create' about a ping they received; one query reads every ping a pass names, and only the
 * receivers' own are loaded as they see them) and sends `new_ping` for each, then a `poke`.
 *
 * Nothing depends on a hint arriving: when the bus connection comes back after a loss, and every
 * CHANGE_BUS_CATCH_UP_SECONDS, the node compares each of its people's newest change number with
 * the last it delivered and catches up the same way. This node's own writes are delivered by its
 * own announcements (events.ts, at once, from memory): their numbers are marked done here so the
 * log is not read for them again.
 */
import type { Ping } from '@pingme/shared';
import type { Config } from '../config';
import { changesAfterEach, countersOf, counterOf } from '../db/changes';
import type { Db } from '../db/connection';
import { pingsAsReceived } from '../db/pings';
import { logger } from '../logger';
import type { ChangeBus, Hint } from './bus';
import type { ChangeEvents } from './events';
import type { RealtimeHub } from './hub';

/** People read from the log per query. */
const BATCH = 100;
/** Rows read per person per pass (a person far behind gets a poke and pulls the rest). */
const ROWS_PER_PERSON = 200;

interface Person {
  /** The last change number delivered (or known to be there when the first socket opened). */
  delivered: number | undefined;
  /** Numbers above `delivered` this node's own writes already delivered. */
  done: Set<number>;
  /** The newest number a hint named. */
  wanted: number;
}

export class ClusterRelay {
  private readonly people = new Map<string, Person>();
  private readonly dirty = new Set<string>();
  private working = false;
  private timer: NodeJS.Timeout | undefined;
  /**
   * Passes over the log, new_ping frames sent from it, and pings read as a person sees them to
   * send them (only receivers' pings: tests, logs).
   */
  readonly stats = { passes: 0, newPings: 0, catchUps: 0, pingViews: 0 };

  constructor(
    private readonly deps: {
      db: Db;
      hub: RealtimeHub;
      events: ChangeEvents;
      bus: ChangeBus;
      config: Pick<Config, 'busCatchUpMs'>;
    },
  ) {}

  start(): void {
    const { hub, events, bus, config } = this.deps;
    hub.presence = { opened: (u) => this.opened(u), closed: (u) => this.people.delete(u) };
    for (const u of hub.people()) this.opened(u);
    events.on('committed', this.onCommitted);
    bus.onHints((hints) => this.onHints(hints));
    bus.onReconnect(() => void this.catchUp());
    this.timer = setInterval(() => void this.catchUp(), config.busCatchUpMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.deps.events.off('committed', this.onCommitted);
    this.deps.hub.presence = undefined;
  }

  /**
   * Whether this node knows where `userId`'s change log stood when their first socket here opened
   * (read from the database just after it opens): from then on, every change is delivered to
   * their sockets; one made before is what the device pulls when it connects.
   */
  follows(userId: string): boolean {
    return this.people.get(userId)?.delivered !== undefined;
  }

  private opened(userId: string) {
    const person: Person = { delivered: undefined, done: new Set(), wanted: 0 };
    this.people.set(userId, person);
    // Everything up to now is what the device pulls when it connects; only later changes are
    // this socket's news.
    counterOf(this.deps.db, userId).then(
      ({ seq }) => {
        if (this.people.get(userId) !== person) return;
        person.delivered = seq;
        this.settle(person);
        if (person.wanted > seq) this.mark(userId);
        // A change heard of while the number was read, and counted in it: the device may have
        // pulled before it was made, and this socket will not be told of it; a poke makes the
        // device pull now rather than at its next trigger (up to a minute later).
        else if (person.wanted > 0) this.deps.hub.poke([userId]);
      },
      (err: unknown) => logger.warn({ err }, 'relay: could not read a change counter'),
    );
  }

  private readonly onCommitted = (numbers: ReadonlyMap<string, readonly number[]>) => {
    for (const [userId, seqs] of numbers) {
      const person = this.people.get(userId);
      if (!person) continue;
      for (const n of seqs) person.done.add(n);
      this.settle(person);
    }
  };

  /** Moves `delivered` over the numbers this node's own writes delivered. */
  private settle(person: Person) {
    if (person.delivered === undefined) return;
    while (person.done.delete(person.delivered + 1)) person.delivered += 1;
    for (const n of person.done) if (n <= person.delivered) person.done.delete(n);
  }

  private onHints(hints: Hint[]) {
    for (const h of hints) {
      if (h.kind !== 'changed') continue;
      const person = this.people.get(h.userId);
      if (!person) continue;
      person.wanted = Math.max(person.wanted, h.seq);
      if (person.delivered !== undefined && h.seq > person.delivered) this.mark(h.userId);
    }
  }

  private mark(userId: string) {
    this.dirty.add(userId);
    if (!this.working) void this.work();
  }

  /** Every person here whose newest number is past the last delivered: read and deliver. */
  async catchUp(): Promise<void> {
    const ids = [...this.people.keys()];
    if (ids.length === 0) return;
    this.stats.catchUps += 1;
    try {
      const newest = await countersOf(this.deps.db, ids);
      for (const [userId, seq] of newest) {
        const person = this.people.get(userId);
        if (!person || person.delivered === undefined || seq <= person.delivered) continue;
        person.wanted = Math.max(person.wanted, seq);
        this.mark(userId);
      }
    } catch (err) {
      logger.warn({ err }, 'relay: catch-up failed; the next one tries again');
    }
  }

  private async work(): Promise<void> {
    this.working = true;
    try {
      while (this.dirty.size) {
        const batch = [...this.dirty].slice(0, BATCH);
        for (const u of batch) this.dirty.delete(u);
        await this.deliver(batch).catch((err: unknown) => {
          logger.warn({ err }, 'relay: delivery from the change log failed; catch-up retries');
        });
      }
    } finally {
      this.working = false;
    }
  }

  private async deliver(userIds: string[]) {
    const { db, hub } = this.deps;
    const cursors = new Map<string, number>();
    for (const u of userIds) {
      const p = this.people.get(u);
      if (p?.delivered !== undefined) cursors.set(u, p.delivered);
    }
    if (cursors.size === 0) return;
    this.stats.passes += 1;
    const rows = await changesAfterEach(db, cursors, ROWS_PER_PERSON);
    const isNew = (person: Person, r: { seq: number }) =>
      r.seq > person.delivered! && !person.done.has(r.seq);
    // The pings the log names as new to each person (to their sender as well as their receiver),
    // read together; only the receivers' own are loaded as they see them.
    const created = new Map<string, string[]>();
    const readFor = new Map<string, Person>();
    for (const [userId, list] of rows) {
      const person = this.people.get(userId);
      if (!person || person.delivered === undefined) continue;
      readFor.set(userId, person);
      const ids = list
        .filter((r) => isNew(person, r) && r.entity === 'ping' && r.op === 'create')
        .map((r) => r.entityId);
      if (ids.length) created.set(userId, ids);
    }
    const received = created.size ? await pingsAsReceived(db, created) : new Map<string, Ping[]>();
    for (const pings of received.values()) this.stats.pingViews += pings.length;
    const poked: string[] = [];
    for (const [userId, list] of rows) {
      const person = this.people.get(userId);
      // Gone (or a socket opened afresh) while the pings were read: nothing of this pass is theirs.
      if (!person || person !== readFor.get(userId) || person.delivered === undefined) continue;
      const fresh = list.filter((r) => isNew(person, r));
      const freshIds = new Set(fresh.map((r) => r.entityId));
      for (const ping of received.get(userId) ?? []) {
        if (!freshIds.has(ping.id)) continue;
        hub.sendNewPing(userId, ping);
        this.stats.newPings += 1;
      }
      if (fresh.length) poked.push(userId);
      const last = list.length ? list[list.length - 1]!.seq : person.delivered;
      person.delivered = Math.max(person.delivered, last);
      this.settle(person);
      // More than one pass's rows: the rest next time round.
      if (list.length >= ROWS_PER_PERSON) this.dirty.add(userId);
    }
    if (poked.length) hub.poke(poked);
  }
}
