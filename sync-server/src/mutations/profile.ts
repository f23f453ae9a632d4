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
import { deleteStoredImage } from '../services/images';
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
 * Applies a change to the caller and answers the updated SelfUser. `photo`: undefined leaves the
 * photo, null removes it, a URL is a photo already stored (services/images.ts), removed again if
 * the change does not commit. The previous photo's files go once the change has committed.
 */
async function changeSelf(
  { trx, changes, me, config }: MutationContext,
  patch: UserUpdate,
  opts: { photo?: string | null; friendsSee: boolean },
): Promise<Outcome<SelfUser>> {
  const photo = opts.photo;
  if (photo !== undefined) {
    patch.profileImageUrl = photo;
    if (photo !== null) changes.onRollback(() => deleteStoredImage(config.uploadsDir, photo));
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
  if (photo !== undefined && previous !== photo) {
    changes.onCommit(() => deleteStoredImage(config.uploadsDir, previous));
  }
  return { body: toSelf(after) };
}

/** In JSON a photo can only be removed (`''`); a new one is uploaded (PUT /api/profile/photo). */
const photoOf = (field: '' | undefined) => (field === '' ? null : undefined);

/** A photo already stored (re-encoded) becomes the caller's: PUT /api/profile/photo. */
export function setPhoto(c: MutationContext, url: string): Promise<Outcome<SelfUser>> {
  return changeSelf(c, {}, { photo: url, friendsSee: true });
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
    return changeSelf(c, patch, { photo: photoOf(args.profileImageUrl), friendsSee: true });
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
    return changeSelf(c, patch, { photo: photoOf(args.profileImageUrl), friendsSee: true });
  },

  'privacy.update'(c, args) {
    return changeSelf(c, { profileVisibility: args.profileVisibility }, { friendsSee: true });
  },
};
