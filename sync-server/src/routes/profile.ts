/**
 * The signed-in person's own profile: username availability, the setup flow and the guided
 * tour, profile edits (with the photo) and privacy. Nobody can change another person's profile:
 * no route here takes a user id, every change applies to the session's user.
 */
import Router from '@koa/router';
import {
  CompleteOnboardingBody,
  LIMITS,
  OnboardingBody,
  PrivacySettingsBody,
  ProfileUpdateBody,
  UsernameCheckParams,
  isValidUsername,
  normalizeUsername,
  type SelfUser,
  type UsernameCheckResponse,
} from '@pingme/shared';
import type { Context } from 'koa';
import type { AppDeps } from '../app';
import { linkedPeopleIds } from '../db/friendships';
import { isHandleTaken, takenHandles } from '../db/people';
import type { UserRow, UserUpdate } from '../db/schema';
import { findUserById, toSelf, updateUser } from '../db/users';
import { conflict, notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { isUniqueViolation, mutate, type Trx } from '../middleware/idempotency';
import { input, validate } from '../middleware/validate';
import {
  deleteStoredImage,
  IMAGE_TOO_LARGE,
  MAX_IMAGE_BYTES,
  saveImage,
  type StoredImage,
} from '../services/images';
import { uploadBody } from '../middleware/upload';

export const HANDLE_TAKEN = 'Username not available';

const SUFFIX_WORDS = ['pings', 'hq', 'here', 'xo', 'real', 'now', 'vibes', 'daily', 'online'];

/**
 * Alternatives to a wanted handle, best first: handle + digits and handle_ + word, alternating,
 * each cut to fit 30 characters and valid. Randomised so two people asking for the same name
 * are not offered the same list; the caller removes the taken ones.
 */
export function usernameCandidates(base: string, count = 12, rand = Math.random): string[] {
  const fit = (suffix: string) => base.slice(0, LIMITS.usernameMax - suffix.length) + suffix;
  const digits = (n: number) => String(10 ** (n - 1) + Math.floor(rand() * 9 * 10 ** (n - 1)));
  const offset = Math.floor(rand() * SUFFIX_WORDS.length);
  const out = new Set<string>();
  for (let i = 0; out.size < count && i < count * 4; i++) {
    const word = SUFFIX_WORDS[(offset + (i >> 1)) % SUFFIX_WORDS.length]!;
    const candidate = i % 2 === 0 ? fit(digits(2 + ((i >> 1) % 3))) : fit(`_${word}`);
    if (candidate !== base && isValidUsername(candidate)) out.add(candidate);
  }
  return [...out];
}

async function freeSuggestions(deps: AppDeps, base: string, me: string) {
  const picked: string[] = [];
  for (let round = 0; round < 4 && picked.length < LIMITS.usernameSuggestions; round++) {
    const candidates = usernameCandidates(base).filter((c) => !picked.includes(c));
    const taken = await takenHandles(deps.db, candidates, me);
    for (const c of candidates) {
      if (!taken.has(c) && picked.length < LIMITS.usernameSuggestions) picked.push(c);
    }
  }
  return picked;
}

/** Empty strings clear a text field. */
const orNull = (v: string) => (v === '' ? null : v);

/**
 * Everyone whose devices show this person's profile: themself, their friends, and the other side
 * of each pending request (sent or received), whose request card shows name, photo, handle and
 * tagline. Each gets the 'user' change row; the pull turns it into the friendship row again.
 */
async function everyoneWhoSees(trx: Trx, userId: string): Promise<string[]> {
  return [userId, ...(await linkedPeopleIds(trx, userId))];
}

export function profileRoutes(deps: AppDeps): Router {
  const { db, config } = deps;
  const router = new Router({ prefix: '/api' });

  /**
   * Applies a change to the signed-in person inside one transaction (with its idempotency
   * record and change-log rows) and answers the updated SelfUser. `image`: undefined leaves the
   * photo, '' removes it, bytes (an upload) replace it. The new file is written before the
   * transaction and removed again if it does not commit; the old file is deleted once the change
   * has committed.
   */
  async function changeSelf(
    ctx: Context,
    patch: UserUpdate,
    opts: { image?: '' | Buffer; friendsSee: boolean },
  ): Promise<void> {
    const me = currentUser(ctx);
    let stored: StoredImage | undefined;
    if (opts.image !== undefined) {
      if (opts.image === '') patch.profileImageUrl = null;
      else {
        stored = await saveImage(config.uploadsDir, opts.image);
        patch.profileImageUrl = stored.url;
      }
    }
    let previousImage: string | null = null;
    try {
      await mutate(ctx, db, async (trx, feed) => {
        const before = await findUserById(trx, me.id);
        if (!before) throw notFound('User not found');
        previousImage = before.profileImageUrl;
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
        await feed.record(
          opts.friendsSee ? await everyoneWhoSees(trx, me.id) : [me.id],
          'user',
          me.id,
        );
        return { body: toSelf(after) satisfies SelfUser };
      });
    } catch (err) {
      if (stored) await deleteStoredImage(config.uploadsDir, stored.url);
      throw err;
    }
    if (ctx.response.get('Idempotent-Replayed') === 'true') {
      // A concurrent delivery of the same key won: our transaction rolled back.
      if (stored) await deleteStoredImage(config.uploadsDir, stored.url);
      return;
    }
    if (opts.image !== undefined && previousImage !== patch.profileImageUrl) {
      await deleteStoredImage(config.uploadsDir, previousImage);
    }
  }

  router.get(
    '/username/check/:handle',
    requireUser(db),
    validate({ params: UsernameCheckParams }),
    async (ctx) => {
      const me = currentUser(ctx);
      const { params } = input<unknown, unknown, { handle: string }>(ctx);
      const handle = normalizeUsername(params.handle);
      const available =
        handle.length >= LIMITS.usernameMin &&
        (handle === me.handle || !(await isHandleTaken(db, handle, me.id)));
      let suggestions: string[] = [];
      if (!available) {
        const fromName = normalizeUsername(`${me.firstName ?? ''}${me.lastName ?? ''}`);
        const base = handle || fromName || 'pinger';
        suggestions = await freeSuggestions(deps, base, me.id);
      }
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { available, handle, suggestions } satisfies UsernameCheckResponse;
    },
  );

  router.post(
    '/user/complete-onboarding',
    requireUser(db),
    validate({ body: CompleteOnboardingBody }),
    async (ctx) => {
      const { body } = input<CompleteOnboardingBody>(ctx);
      const patch: UserUpdate = { handle: body.handle, onboardingCompleted: 1 };
      if (body.bio !== undefined) patch.bio = orNull(body.bio);
      if (body.location !== undefined) patch.location = orNull(body.location);
      await changeSelf(ctx, patch, { image: body.profileImageUrl, friendsSee: true });
    },
  );

  router.patch(
    '/user/onboarding',
    requireUser(db),
    validate({ body: OnboardingBody }),
    async (ctx) => {
      const { body } = input<OnboardingBody>(ctx);
      const patch: UserUpdate = {};
      if (body.step !== undefined) patch.onboardingStep = body.step;
      // Completion is one-way: `completed: false` changes nothing.
      if (body.completed === true) patch.onboardingCompleted = 1;
      await changeSelf(ctx, patch, { friendsSee: false });
    },
  );

  router.put(
    '/profile/update',
    requireUser(db),
    validate({ body: ProfileUpdateBody }),
    async (ctx) => {
      const { body } = input<ProfileUpdateBody>(ctx);
      const patch: UserUpdate = {};
      const texts = [
        'handle',
        'bio',
        'status',
        'location',
        'personalLink',
        'tagline',
        'quietHoursStart',
        'quietHoursEnd',
      ] as const;
      for (const key of texts) {
        const v = body[key];
        if (v !== undefined) patch[key] = orNull(v);
      }
      if (body.rateLimitPerDay !== undefined) patch.rateLimitPerDay = body.rateLimitPerDay;
      await changeSelf(ctx, patch, { image: body.profileImageUrl, friendsSee: true });
    },
  );

  /**
   * A new profile photo: the file itself as the body (any image Content-Type; the bytes decide),
   * read only for a signed-in person, within MAX_IMAGE_BYTES and a cap on uploads at once
   * (middleware/upload.ts). Answers the updated SelfUser, like PUT /api/profile/update.
   */
  router.put(
    '/profile/photo',
    requireUser(db),
    uploadBody({
      limit: MAX_IMAGE_BYTES,
      maxConcurrent: config.uploadMaxConcurrent,
      tooLargeMessage: IMAGE_TOO_LARGE,
    }),
    async (ctx) => {
      await changeSelf(ctx, {}, { image: ctx.state.upload as Buffer, friendsSee: true });
    },
  );

  router.put(
    '/privacy-settings',
    requireUser(db),
    validate({ body: PrivacySettingsBody }),
    async (ctx) => {
      const { body } = input<{ profileVisibility: 'public' | 'private' }>(ctx);
      await changeSelf(ctx, { profileVisibility: body.profileVisibility }, { friendsSee: true });
    },
  );

  return router;
}
