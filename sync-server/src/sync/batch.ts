/**
 * POST /api/sync/batch, in the numbered steps of docs/sync.md ("Batch"): the caller is signed in
 * once; each entry names a mutation (or, written by an older app, its REST call) and is applied
 * in-process, in order, each in its own savepoint of a shared transaction (mutations/coalesce.ts).
 */
import {
  BATCH_NOT_ATTEMPTED,
  MUTATIONS,
  MUTATION_MAX_BYTES,
  isMutationName,
  mutationOfRestCall,
  type BatchEntry,
  type BatchResult,
  type MutationName,
} from '@pingme/shared';
import type { AppDeps } from '../deps';
import { logger } from '../logger';
import { AppError, badRequest, errorAnswer, payloadTooLarge, unknownField } from '../errors';
import { entryHash, requestHash, type Caller } from '../mutations/apply';
import { runGroup, type ItemOutcome, type Job, type JobItem } from '../mutations/coalesce';

export const BATCH_PATH = '/api/sync/batch';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The path as the router would see it: no query, no repeated or trailing slashes, any case. */
export function isBatchPath(path: string): boolean {
  let p = path.split(/[?#]/)[0] ?? '';
  try {
    p = decodeURIComponent(p);
  } catch {
    // Undecodable: no mutation has that path either.
  }
  p = p
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
    .toLowerCase();
  return p === BATCH_PATH;
}

/** An entry's arguments over its mutation's size limit: what its REST call would answer. */
function tooLarge(name: MutationName, args: unknown): AppError | undefined {
  const limit = MUTATIONS[name].maxBytes ?? MUTATION_MAX_BYTES;
  if (Buffer.byteLength(JSON.stringify(args ?? {})) <= limit) return undefined;
  return payloadTooLarge('The request body is too large');
}

/** Step 0: an entry as the mutation it applies, or the refusal it is answered with. */
export function itemOf(entry: BatchEntry): { idempotencyKey: string } & JobItem {
  const { idempotencyKey } = entry;
  if ('name' in entry) {
    if (!isMutationName(entry.name)) {
      return { idempotencyKey, refused: badRequest(`Unknown mutation: ${entry.name}`) };
    }
    const args = entry.args ?? {};
    if (!isPlainObject(args)) {
      return { idempotencyKey, refused: badRequest('The arguments must be a JSON object') };
    }
    const large = tooLarge(entry.name, args);
    if (large) return { idempotencyKey, refused: large };
    return {
      idempotencyKey,
      entry: {
        name: entry.name,
        args,
        key: idempotencyKey,
        requestHash: entryHash(entry.name, args),
      },
    };
  }
  // An entry queued by an older app: its REST call.
  const path = entry.path.split(/[?#]/)[0]!;
  if (isBatchPath(entry.path)) {
    return { idempotencyKey, refused: badRequest('A batch cannot contain /api/sync/batch') };
  }
  const found = mutationOfRestCall(entry.method, path, entry.body);
  if (!found) {
    return {
      idempotencyKey,
      refused: new AppError(404, 'not_found', `No such route: ${entry.method} ${path}`),
    };
  }
  if (found.repeated) return { idempotencyKey, refused: unknownField(found.repeated) };
  const large = tooLarge(found.name, entry.body);
  if (large) return { idempotencyKey, refused: large };
  return {
    idempotencyKey,
    entry: {
      name: found.name,
      args: found.args,
      key: idempotencyKey,
      requestHash: requestHash(entry.method, path, entry.body ?? {}),
    },
  };
}

/** An entry's result as the device reads it: its REST call's status and body, or not attempted. */
function resultOf(idempotencyKey: string, outcome: ItemOutcome, entry: string): BatchResult {
  if ('answer' in outcome) {
    return { idempotencyKey, status: outcome.answer.status, body: outcome.answer.body };
  }
  if ('notAttempted' in outcome) {
    return {
      idempotencyKey,
      status: BATCH_NOT_ATTEMPTED,
      body: {
        error: `Not attempted: entry ${outcome.notAttempted} must succeed first`,
        notAttempted: true,
      },
    };
  }
  const { status, body } = errorAnswer(outcome.error);
  if (status === 500) logger.error({ err: outcome.error, mutation: entry }, 'batch entry failed');
  return { idempotencyKey, status, body };
}

/**
 * The entries of one batch as one job (mutations/coalesce.ts): in order, each in its own
 * savepoint, stopping at a transient failure; committed with the other writes of its group (or
 * alone when WRITE_COALESCING is off). If that commit fails, every entry is a transient failure.
 */
export async function runBatch(
  { db, events, coalescer }: AppDeps,
  caller: Caller,
  entries: BatchEntry[],
): Promise<BatchResult[]> {
  const items = entries.map(itemOf);
  const job: Job = { caller, items, stopOnTransient: true };
  let outcomes: ItemOutcome[];
  try {
    outcomes = coalescer ? await coalescer.run(job) : (await runGroup(db, events, [job]))[0]!;
  } catch (err) {
    logger.error({ err }, 'batch transaction failed');
    const failed = errorAnswer(err);
    return items.map(({ idempotencyKey }) => ({
      idempotencyKey,
      status: failed.status >= 500 ? failed.status : 503,
      body: failed.body,
    }));
  }
  return outcomes.map((o, i) =>
    resultOf(items[i]!.idempotencyKey, o, 'entry' in items[i]! ? items[i]!.entry.name : ''),
  );
}
