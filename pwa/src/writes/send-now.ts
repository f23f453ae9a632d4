/**
 * The writes that go straight to the server instead of through the outbox, because the screen
 * needs the server's answer to go on (an id the server makes, a photo of a few MB, an admin's
 * decision) or because they only make sense online. Each is still a named mutation: its REST call
 * and the schema of its answer come from the registry (shared/src/mutations.ts).
 */
import {
  MUTATIONS,
  restCall,
  type MutationArgs,
  type MutationInput,
  type MutationName,
  type MutationResult,
} from '@pingme/shared';
import type { z } from 'zod';
import { request } from '../api';
import { InvalidWrite } from '../sync/local-write';

export async function sendNow<N extends MutationName>(
  name: N,
  input: MutationInput<N>,
): Promise<MutationResult<N>> {
  const spec = MUTATIONS[name];
  const parsed = spec.args.safeParse(input);
  if (!parsed.success) throw new InvalidWrite(name, parsed.error.issues);
  const call = restCall(name, parsed.data as MutationArgs<N>);
  return request(call.method, call.path, {
    ...(call.method === 'DELETE' ? {} : { body: call.body }),
    schema: spec.result as unknown as z.ZodType<MutationResult<N>>,
  });
}
