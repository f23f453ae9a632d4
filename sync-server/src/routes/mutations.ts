/**
 * Every mutation of shared/src/mutations.ts as its REST call (docs/api.md): a thin adapter that
 * signs the caller in, takes the arguments from the path and the body, and applies the mutation
 * in-process (mutations/apply.ts) exactly as a batch entry would be applied.
 */
import type Router from '@koa/router';
import { MUTATION_NAMES, MUTATIONS, mutationParams, type MutationName } from '@pingme/shared';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { badRequest, unknownField } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { IDEMPOTENCY_HEADER } from '../middleware/idempotency';
import {
  REPLAYED_HEADER,
  applyOne,
  requestHash,
  type Caller,
  type Entry,
  type EntryAnswer,
} from '../mutations/apply';
import type { WriteCoalescer } from '../mutations/coalesce';

/** The path parameters and the JSON body as one arguments object, as the schema expects. */
export function restArgs(name: MutationName, ctx: Context): Record<string, unknown> {
  const raw: unknown = ctx.request.body ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw badRequest('The request body must be a JSON object');
  }
  const args: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
  for (const p of mutationParams(name)) {
    // The path names it; the body may not name it again.
    if (Object.hasOwn(args, p)) throw unknownField(p);
    args[p] = params[p];
  }
  return args;
}

/** One REST write, committed with the others of its group; a refusal is thrown as it came. */
async function appliedWithOthers(
  coalescer: WriteCoalescer,
  caller: Caller,
  entry: Entry,
): Promise<EntryAnswer> {
  const [outcome] = await coalescer.run({ caller, items: [{ entry }], stopOnTransient: false });
  if (outcome && 'answer' in outcome) return outcome.answer;
  throw outcome && 'error' in outcome ? outcome.error : new Error('the write was not attempted');
}

export function mutationRoutes(router: Router, { db, config, events, coalescer }: AppDeps): void {
  const signedIn = requireUser(db);
  for (const name of MUTATION_NAMES) {
    const { method, path } = MUTATIONS[name];
    router.register(
      path,
      [method],
      [
        signedIn,
        async (ctx) => {
          const key = ctx.get(IDEMPOTENCY_HEADER) || undefined;
          if (key && key.length > 200) {
            throw badRequest('Idempotency-Key must be at most 200 characters');
          }
          const caller = { me: currentUser(ctx), config, ip: ctx.ip };
          const entry = {
            name,
            args: restArgs(name, ctx),
            key,
            requestHash: requestHash(ctx.method, ctx.path, ctx.request.body),
          };
          const answer = coalescer
            ? await appliedWithOthers(coalescer, caller, entry)
            : await applyOne(db, events, caller, entry);
          ctx.status = answer.status;
          ctx.type = 'json';
          ctx.body = answer.json;
          if (answer.replayed) ctx.set(REPLAYED_HEADER, 'true');
        },
      ],
    );
  }
}
