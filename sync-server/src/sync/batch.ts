/**
 * POST /api/sync/batch, in the numbered steps of docs/sync.md ("Batch"): the caller is signed in
 * once; each entry names a mutation (or, written by an older app, its REST call) and is applied
 * in-process, in order, each all-or-nothing in a shared transaction (mutations/coalesce.ts).
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

/** Step 1 (docs/sync.md, "Batch"): an entry as the mutation it applies, or the refusal it is answered with. */
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

/** An entry's result as the device reads it, with its body's JSON text (`json`). */
export type BatchAnswer = BatchResult & { json: string };

/** An entry's result as the device reads it: its REST call's status and body, or not attempted. */
function resultOf(
  idempotencyKey: string,
  outcome: ItemOutcome,
  entry: string,
  callerId: string,
): BatchAnswer {
  if ('answer' in outcome) {
    const { status, body, json, changes } = outcome.answer;
    const change = changes?.numbers.get(callerId)?.at(-1);
    return { idempotencyKey, status, body, json, ...(change === undefined ? {} : { change }) };
  }
  if ('notAttempted' in outcome) {
    const body = {
      error: `Not attempted: entry ${outcome.notAttempted} must succeed first`,
      notAttempted: true,
    };
    return { idempotencyKey, status: BATCH_NOT_ATTEMPTED, body, json: JSON.stringify(body) };
  }
  const { status, body } = errorAnswer(outcome.error);
  if (status === 500) logger.error({ err: outcome.error, mutation: entry }, 'batch entry failed');
  return { idempotencyKey, status, body, json: JSON.stringify(body) };
}

/**
 * The batch's answer (`BatchResponse`) as JSON text, each entry's body being the text its answer
 * already holds (a ping's answer was serialised once, for its idempotency record): the same
 * text `JSON.stringify({results})` makes, without serialising every body a second time.
 */
export function batchResponseJson(results: readonly BatchAnswer[]): string {
  const items = results.map(
    (r) =>
      `{"idempotencyKey":${JSON.stringify(r.idempotencyKey)},"status":${JSON.stringify(r.status)},"body":${r.json}${r.change === undefined ? '' : `,"change":${r.change}`}}`,
  );
  return `{"results":[${items.join(',')}]}`;
}

/**
 * The entries of one batch as one job (mutations/coalesce.ts): in order, each all-or-nothing,
 * stopping at a transient failure; committed with the other writes of its group (or
 * alone when WRITE_COALESCING is off). If that commit fails, every entry is a transient failure.
 */
export async function runBatch(
  { db, events, coalescer }: AppDeps,
  caller: Caller,
  entries: BatchEntry[],
): Promise<BatchAnswer[]> {
  const items = entries.map(itemOf);
  const job: Job = { caller, items, stopOnTransient: true };
  let outcomes: ItemOutcome[];
  try {
    outcomes = coalescer ? await coalescer.run(job) : (await runGroup(db, events, [job]))[0]!;
  } catch (err) {
    logger.error({ err }, 'batch transaction failed');
    const failed = errorAnswer(err);
    const json = JSON.stringify(failed.body);
    return items.map(({ idempotencyKey }) => ({
      idempotencyKey,
      status: failed.status >= 500 ? failed.status : 503,
      body: failed.body,
      json,
    }));
  }
  return outcomes.map((o, i) =>
    resultOf(
      items[i]!.idempotencyKey,
      o,
      'entry' in items[i]! ? items[i]!.entry.name : '',
      caller.me.id,
    ),
  );
}
