/**
 * Group commit for REST writes (docs/performance.md, "One commit for many writes"). SQLite has one
 * writer, so concurrent writes wait for each other anyway; here the writes that arrive while one
 * commit is under way are applied together in the next transaction, each in its own savepoint,
 * and committed once: the commit (most of a small write's cost) is paid once per group, and the
 * pages several writes touch go to the WAL once. Each write still gets its own answer, and only
 * after the commit that holds it: a refusal rolls back its savepoint alone, and if the commit
 * itself fails every write of the group fails and nothing of it is announced.
 */
import type { Db } from '../db/connection';
import { settle, type Announcer, type ChangeSet } from '../db/unit-of-work';
import {
  BrokenTransaction,
  applyInSavepoint,
  type Caller,
  type Entry,
  type EntryAnswer,
} from './apply';

interface Waiting {
  caller: Caller;
  entry: Entry;
  resolve(answer: EntryAnswer): void;
  reject(err: unknown): void;
}

/** At most this many writes share a commit, so one group never holds the writer for long. */
export const MAX_GROUP = 64;

export class WriteCoalescer {
  private waiting: Waiting[] = [];
  private running = false;
  /** Commits made and writes they held, since start (tests, metrics). */
  readonly stats = { groups: 0, writes: 0 };

  constructor(
    private readonly db: Db,
    private readonly announcer: Announcer | undefined,
  ) {}

  /** Applies one write with the others of its group; resolves after their commit. */
  apply(caller: Caller, entry: Entry): Promise<EntryAnswer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ caller, entry, resolve, reject });
      if (!this.running) {
        this.running = true;
        // The other requests of this turn of the event loop join the first group.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length) await this.run(this.waiting.splice(0, MAX_GROUP));
    } finally {
      this.running = false;
    }
  }

  private async run(group: Waiting[]): Promise<void> {
    const committed: ChangeSet[] = [];
    const outcomes: ({ answer: EntryAnswer } | { error: unknown })[] = [];
    let trx;
    try {
      trx = await this.db.startTransaction().execute();
      for (const [index, w] of group.entries()) {
        try {
          outcomes.push({
            answer: await applyInSavepoint(trx, w.caller, w.entry, index, committed),
          });
        } catch (err) {
          if (err instanceof BrokenTransaction) throw err.cause;
          outcomes.push({ error: err });
        }
      }
      await trx.commit().execute();
      this.stats.groups += 1;
      this.stats.writes += group.length;
    } catch (err) {
      await trx
        ?.rollback()
        .execute()
        .catch(() => undefined);
      await settle(committed, 'rolledBack');
      for (const w of group) w.reject(err);
      return;
    }
    await settle(committed, 'committed');
    if (this.announcer && committed.length) this.announcer.announce(committed);
    for (const [i, w] of group.entries()) {
      const outcome = outcomes[i]!;
      if ('answer' in outcome) w.resolve(outcome.answer);
      else w.reject(outcome.error);
    }
  }
}
