/**
 * Group commit (docs/performance.md, "One commit for many writes"). SQLite has one writer, so
 * concurrent writes wait for each other anyway; here the writes that arrive while one commit is
 * under way (REST calls and whole batches alike) are applied together in the next transaction,
 * each write all-or-nothing (runGroup: without savepoints until one fails), and committed once:
 * the commit (most of a small write's cost) is paid once per group, and the pages several writes
 * touch go to the WAL once. Each write still gets its own answer, and only after the commit that
 * holds it; a refusal undoes that write alone; if the commit itself fails, every write of the
 * group fails and nothing of it is announced. On PostgreSQL a node runs up to
 * DATABASE_WRITE_TRANSACTIONS groups at once (its "lanes"), each on a connection of its own; on
 * SQLite one.
 */
import { isRetryableStatus } from '@pingme/shared';
import { runCompiledDirectly, stopCompiledDirectly } from '../db/compiled';
import type { Db } from '../db/connection';
import { isRetryableConflict } from '../db/dialect';
import {
  CONFLICT_RETRIES,
  flushChanges,
  settle,
  type Announcer,
  type ChangeSet,
} from '../db/unit-of-work';
import { errorAnswer, type AppError } from '../errors';
import {
  BrokenTransaction,
  WithoutSavepoints,
  applyInSavepoint,
  saveDeferred,
  sharedTransaction,
  type Caller,
  type SharedTransaction,
  type Entry,
  type EntryAnswer,
} from './apply';

/** One write of a job: a mutation, or an entry already refused (it is answered, not applied). */
export type JobItem = { entry: Entry } | { refused: AppError };

/** What became of one write: its answer, the error it was refused with, or not attempted. */
export type ItemOutcome =
  | { answer: EntryAnswer }
  | { error: unknown }
  /** Behind a transient failure of the same job (its index). */
  | { notAttempted: number };

/** Writes of one caller, in order: a REST call (one) or a batch (stops at a transient failure). */
export interface Job {
  caller: Caller;
  items: JobItem[];
  stopOnTransient: boolean;
}

interface Waiting {
  job: Job;
  resolve(outcomes: ItemOutcome[]): void;
  reject(err: unknown): void;
}

/** At most this many writes share a commit, so one group never holds the writer for long. */
export const MAX_GROUP_WRITES = 200;

/**
 * After a group had to run again, this many next groups take their savepoints from the start: a
 * client whose writes keep failing (a replaying outbox, a stream of refusals) would otherwise make
 * every group run twice; so it costs at most one group in this many and one.
 */
export const SAVEPOINT_GROUPS_AFTER_FAILURE = 8;

/**
 * Applies the jobs in one transaction; rejects if it fails to commit. The writes run first without
 * savepoints: if none fails (most groups), nothing else is needed; if one does, the transaction
 * rolls back and the group runs again with each write in its own savepoint, where a refusal rolls
 * back that write alone (apply.ts, WithoutSavepoints). A transaction PostgreSQL gave up on
 * (deadlock, serialization failure) runs again whole.
 */
export async function runGroup(
  db: Db,
  announcer: Announcer | undefined,
  jobs: Job[],
  stats?: GroupStats,
  savepointsFirst = false,
): Promise<ItemOutcome[][]> {
  let savepoints = savepointsFirst;
  for (let attempt = 0; ; attempt++) {
    try {
      return await runGroupOnce(db, announcer, jobs, savepoints, stats);
    } catch (err) {
      if (err instanceof WithoutSavepoints && !savepoints) {
        savepoints = true;
        if (stats) stats.runAgain += 1;
        continue;
      }
      if (!isRetryableConflict(err) || attempt >= CONFLICT_RETRIES) throw err;
    }
  }
}

/** What groups did, since a coalescer started (tests). */
export interface GroupStats {
  /** Groups rolled back and run again with savepoints, after a write failed without them. */
  runAgain: number;
  /** Savepoints opened. */
  savepoints: number;
}

async function runGroupOnce(
  db: Db,
  announcer: Announcer | undefined,
  jobs: Job[],
  savepoints: boolean,
  stats: GroupStats | undefined,
): Promise<ItemOutcome[][]> {
  let committed: ChangeSet[] = [];
  const results: ItemOutcome[][] = [];
  let trx;
  let shared: SharedTransaction | undefined;
  try {
    trx = await db.startTransaction().execute();
    runCompiledDirectly(db, trx);
    shared = sharedTransaction(trx, savepoints);
    committed = shared.committed;
    for (const job of jobs) {
      const outcomes: ItemOutcome[] = [];
      let stoppedAt: number | undefined;
      for (const [index, item] of job.items.entries()) {
        if (stoppedAt !== undefined) {
          outcomes.push({ notAttempted: stoppedAt });
          continue;
        }
        let outcome: ItemOutcome;
        if ('refused' in item) outcome = { error: item.refused };
        else {
          try {
            outcome = {
              answer: await applyInSavepoint(shared, job.caller, item.entry),
            };
          } catch (err) {
            if (err instanceof BrokenTransaction) throw err.cause;
            if (err instanceof WithoutSavepoints) throw err;
            outcome = { error: err };
          }
        }
        outcomes.push(outcome);
        if (job.stopOnTransient && isTransient(outcome)) stoppedAt = index;
      }
      results.push(outcomes);
    }
    await saveDeferred(shared);
    await flushChanges(trx, committed, announcer);
    stopCompiledDirectly(trx);
    await trx.commit().execute();
  } catch (err) {
    if (trx) stopCompiledDirectly(trx);
    await trx
      ?.rollback()
      .execute()
      .catch(() => undefined);
    // A group that runs again registers its after-rollback work again.
    if (!isRetryableConflict(err) && !(err instanceof WithoutSavepoints)) {
      await settle(committed, 'rolledBack');
    }
    throw err;
  } finally {
    if (stats && shared) stats.savepoints += shared.opened;
  }
  await settle(committed, 'committed');
  if (announcer && committed.length) announcer.announce(committed);
  return results;
}

function isTransient(outcome: ItemOutcome): boolean {
  if ('answer' in outcome) return isRetryableStatus(outcome.answer.status, outcome.answer.body);
  if ('error' in outcome) {
    const { status, body } = errorAnswer(outcome.error);
    return isRetryableStatus(status, body);
  }
  return false;
}

export class WriteCoalescer {
  private waiting: Waiting[] = [];
  /** Groups under way, or about to take their writes. */
  private lanes = 0;
  /** A lane is scheduled and has not yet taken its writes: later writes join its group. */
  private starting = false;
  /** Commits made and writes they held, since start (tests, metrics); see also GroupStats. */
  readonly stats = { groups: 0, writes: 0, runAgain: 0, savepoints: 0 };
  /** Groups still to run with savepoints from the start (SAVEPOINT_GROUPS_AFTER_FAILURE). */
  private savepointGroups = 0;

  /**
   * `maxLanes`: how many groups may be under way at once. SQLite has one connection and one writer:
   * one. On PostgreSQL each group runs on a connection of its own and spends most of its time
   * waiting for the network, so the next group need not wait for the last one's commit.
   */
  constructor(
    private readonly db: Db,
    private readonly announcer: Announcer | undefined,
    readonly maxLanes = 1,
  ) {}

  private held: Promise<void> | undefined;

  /**
   * Tests: no group starts until the returned function is called; jobs queue meanwhile, as they
   * do behind a long commit.
   */
  hold(): () => void {
    let release!: () => void;
    this.held = new Promise((resolve) => (release = resolve));
    return () => {
      this.held = undefined;
      release();
    };
  }

  /** Groups under way now (or about to take their writes). */
  get running(): number {
    return this.lanes;
  }

  /** Jobs waiting for the next group (tests). */
  get waitingJobs(): number {
    return this.waiting.length;
  }

  /** Applies a job with the others of its group; resolves after their commit. */
  run(job: Job): Promise<ItemOutcome[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      this.wake();
    });
  }

  /** Starts a lane, unless one is about to take the waiting writes or none is free. */
  private wake(): void {
    if (this.starting || this.lanes >= this.maxLanes) return;
    this.lanes += 1;
    this.starting = true;
    // The other requests of this turn of the event loop join its group.
    setImmediate(() => void this.lane());
  }

  /** Runs groups one after another while writes wait (and no other lane is about to take them). */
  private async lane(): Promise<void> {
    try {
      for (;;) {
        if (this.held) await this.held;
        const group = this.take();
        this.starting = false;
        if (!group.length) return;
        // Writes that arrive while this group runs start a group of their own if a lane is free.
        if (this.waiting.length) this.wake();
        await this.runNext(group);
        if (!this.waiting.length || this.starting) return;
        // better-sqlite3 answers at once, so a group runs as one chain of resolved promises and
        // the next would follow without the event loop ever turning: 50 batches of 50 entries
        // held it for 0.7 s, with no request read, no answer sent and no /ws frame or heartbeat
        // handled meanwhile. One turn between groups lets all of that through, and lets the
        // requests that arrived meanwhile join the next group.
        this.starting = true;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.lanes -= 1;
      if (this.waiting.length) this.wake();
    }
  }

  /** Whole jobs, up to MAX_GROUP_WRITES writes (a bigger job goes alone). */
  private take(): Waiting[] {
    const group: Waiting[] = [];
    let writes = 0;
    while (this.waiting.length) {
      const size = this.waiting[0]!.job.items.length;
      if (group.length && writes + size > MAX_GROUP_WRITES) break;
      group.push(this.waiting.shift()!);
      writes += size;
    }
    return group;
  }

  private async runNext(group: Waiting[]): Promise<void> {
    const writes = group.reduce((n, w) => n + w.job.items.length, 0);
    let results: ItemOutcome[][];
    const savepointsFirst = this.savepointGroups > 0;
    if (savepointsFirst) this.savepointGroups -= 1;
    const ranAgain = this.stats.runAgain;
    try {
      results = await runGroup(
        this.db,
        this.announcer,
        group.map((w) => w.job),
        this.stats,
        savepointsFirst,
      );
      if (this.stats.runAgain > ranAgain) this.savepointGroups = SAVEPOINT_GROUPS_AFTER_FAILURE;
    } catch (err) {
      for (const w of group) w.reject(err);
      return;
    }
    this.stats.groups += 1;
    this.stats.writes += writes;
    group.forEach((w, i) => w.resolve(results[i]!));
  }
}
