/**
 * What every write module shares: the error toast a screen gives a write (shown once if the server
 * refuses it for good, spec section 8), and the pieces of pending rows. A pending row has exactly
 * the shape the pull delivers for its entity, marked `pending` until the server's row replaces it.
 */
import type { UserSummary } from '@pingme/shared';
import { PENDING_FIELD } from '../sync/local-write';

export interface ErrorToast {
  /** 'Error' unless given. */
  title?: string;
  description: string;
  /** Show the server's own message when it gives one. */
  preferServerMessage?: boolean;
}

export type Pending<T> = T & { [PENDING_FIELD]: true };

/** Just the summary fields, so a whole profile does not travel inside a ping or an anchor. */
export function summaryOf(p: UserSummary): UserSummary {
  return {
    id: p.id,
    firstName: p.firstName,
    lastName: p.lastName,
    profileImageUrl: p.profileImageUrl,
  };
}
