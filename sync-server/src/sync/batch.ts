/**
 * POST /api/sync/batch, in the numbered steps of docs/sync.md ("Batch"): the caller is signed in
 * once; each entry names a mutation (or, written by an older app, its REST call) and is applied
 * in-process, in order, in one transaction with a savepoint per entry (mutations/apply.ts).
 */
import {
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
import { AppError, badRequest, payloadTooLarge, unknownField } from '../errors';
import {
  applyBatch,
  entryHash,
  requestHash,
  type BatchItem,
  type Caller,
} from '../mutations/apply';

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
export function itemOf(entry: BatchEntry): BatchItem {
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

export async function runBatch(
  { db, events }: AppDeps,
  caller: Caller,
  entries: BatchEntry[],
): Promise<BatchResult[]> {
  return applyBatch(db, events, caller, entries.map(itemOf), (err, item) =>
    logger.error(
      { err, mutation: 'entry' in item ? item.entry.name : undefined },
      'batch entry failed',
    ),
  );
}
