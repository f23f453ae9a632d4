/**
 * The signed-in person's own profile: the setup flow, the guided tour, profile edits (with the
 * photo) and privacy. No mutation here takes a user id: every change applies to the caller.
 */
import type { SelfUser } from '@pingme/shared';
import type { Db } from '../db/connection';
import { linkedPeopleIds } from '../db/friendships';
import { isHandleTaken } from '../db/people';
import type { UserRow, UserUpdate } from '../db/schema';
import { isUniqueViolation } from '../db/unit-of-work';
import { findUserById, toSelf, updateUser } from '../db/users';
import { conflict, notFound } from '../errors';
import { deleteStoredImage, saveImageDataUrl } from '../services/images';
import type { HandlerTable, MutationContext, Outcome } from './context';

export const HANDLE_TAKEN = 'Username not available';

/** Empty strings clear a text field. */
const orNull = (v: string) => (v === '' ? null : v);

/**
 * Everyone whose devices show this person's profile: themself, their friends, and the other side
 * of each pending request (sent or received), whose request card shows name, photo, handle and
 * tagline. Each gets the 'user' change row; the pull turns it into the friendship row again.
 */
async function everyoneWhoSees(trx: Db, userId: string): Promise<string[]> {
  return [userId, ...(await linkedPeopleIds(trx, userId))];
}

/**
 * Applies a change to the caller and answers the updated SelfUser. `image` is the photo field as
 * sent: undefined leaves the photo, '' removes it, a data URL replaces it. A new file is removed
 * again if the change does not commit; the old one is deleted once it has.
 */
async function changeSelf(
  { trx, changes, me, config }: MutationContext,
  patch: UserUpdate,
  opts: { image?: string; friendsSee: boolean },
): Promise<Outcome<SelfUser>> {
  if (opts.image !== undefined) {
    if (opts.image === '') patch.profileImageUrl = null;
    else {
      const stored = await saveImageDataUrl(config.uploadsDir, opts.image);
      changes.onRollback(() => deleteStoredImage(config.uploadsDir, stored.url));
      patch.profileImageUrl = stored.url;
    }
  }
  const before = await findUserById(trx, me.id);
  if (!before) throw notFound('User not found');
  if (typeof patch.handle === 'string' && (await isHandleTaken(trx, patch.handle, me.id))) {
    throw conflict(HANDLE_TAKEN, 'handle_taken');
  }
  let after: UserRow;
  try {
    after = await updateUser(trx, me.id, patch);
  } catch (err) {
    // Two people racing for one handle: the unique index decides.
    if (isUniqueViolation(err)) throw conflict(HANDLE_TAKEN, 'handle_taken');
    throw err;
  }
  await changes.record(
    opts.friendsSee ? await everyoneWhoSees(trx, me.id) : [me.id],
    'user',
    me.id,
  );
  const previous = before.profileImageUrl;
  if (opts.image !== undefined && previous !== patch.profileImageUrl) {
    changes.onCommit(() => deleteStoredImage(config.uploadsDir, previous));
  }
  return { body: toSelf(after) };
}

const TEXT_FIELDS = [
  'handle',
  'bio',
  'status',
  'location',
  'personalLink',
  'tagline',
  'quietHoursStart',
  'quietHoursEnd',
] as const;

export const profileMutations: HandlerTable<
  'profile.update' | 'onboarding.complete' | 'onboarding.step' | 'privacy.update'
> = {
  'onboarding.complete'(c, args) {
    const patch: UserUpdate = { handle: args.handle, onboardingCompleted: 1 };
    if (args.bio !== undefined) patch.bio = orNull(args.bio);
    if (args.location !== undefined) patch.location = orNull(args.location);
    return changeSelf(c, patch, { image: args.profileImageUrl, friendsSee: true });
  },

  'onboarding.step'(c, args) {
    const patch: UserUpdate = {};
    if (args.step !== undefined) patch.onboardingStep = args.step;
    // Completion is one-way: `completed: false` changes nothing.
    if (args.completed === true) patch.onboardingCompleted = 1;
    return changeSelf(c, patch, { friendsSee: false });
  },

  'profile.update'(c, args) {
    const patch: UserUpdate = {};
    for (const key of TEXT_FIELDS) {
      const v = args[key];
      if (v !== undefined) patch[key] = orNull(v);
    }
    if (args.rateLimitPerDay !== undefined) patch.rateLimitPerDay = args.rateLimitPerDay;
    return changeSelf(c, patch, { image: args.profileImageUrl, friendsSee: true });
  },

  'privacy.update'(c, args) {
    return changeSelf(c, { profileVisibility: args.profileVisibility }, { friendsSee: true });
  },
};
