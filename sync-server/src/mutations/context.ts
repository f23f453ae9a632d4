/**
 * What a mutation handler is given and answers (docs/sync.md, "Mutations"): the unit of work (its
 * transaction and change set), the signed-in person, the settings, and the arguments already
 * parsed by the mutation's schema in shared/src/mutations.ts.
 */
import type { MutationArgs, MutationName, MutationResult } from '@pingme/shared';
import type { Config } from '../config';
import type { UserRow } from '../db/schema';
import type { UnitOfWork } from '../db/unit-of-work';

export interface MutationContext extends UnitOfWork {
  /** The signed-in person, as loaded for this request. */
  readonly me: UserRow;
  readonly config: Config;
  /** The client's address (throttles per address). */
  readonly ip: string;
}

/** A 2xx answer: 200 unless the handler says 201. */
export interface Outcome<T> {
  status?: 200 | 201;
  body: T;
}

export type MutationHandler<N extends MutationName> = (
  c: MutationContext,
  args: MutationArgs<N>,
) => Promise<Outcome<MutationResult<N>>>;

/**
 * Work that must count even when the mutation is then refused, such as a throttle's hit: it runs
 * before the mutation's own transaction (REST) or savepoint (batch), so a refusal does not undo it.
 */
export type MutationPreCheck<N extends MutationName> = (
  c: MutationContext,
  args: MutationArgs<N>,
) => Promise<void>;

export type HandlerTable<N extends MutationName> = { readonly [K in N]: MutationHandler<K> };
