/**
 * Every mutation's handler, by name: the table has exactly the names of shared/src/mutations.ts
 * (the compiler says so when one is missing), so a registered write always has an implementation.
 */
import type { MutationName } from '@pingme/shared';
import { anchorMutations } from './anchors';
import type { HandlerTable, MutationPreCheck } from './context';
import { friendMutations, inviteUseThrottle } from './friends';
import { insightMutations } from './insights';
import { moodMutations } from './moods';
import { pingMutations } from './pings';
import { profileMutations } from './profile';
import { promptMutations } from './prompts';
import { reportThrottle, safetyMutations } from './safety';

export const HANDLERS: HandlerTable<MutationName> = {
  ...pingMutations,
  ...moodMutations,
  ...promptMutations,
  ...anchorMutations,
  ...friendMutations,
  ...profileMutations,
  ...insightMutations,
  ...safetyMutations,
};

export const PRE_CHECKS: { readonly [N in MutationName]?: MutationPreCheck<N> } = {
  'invite.use': inviteUseThrottle,
  'report.create': reportThrottle,
};
