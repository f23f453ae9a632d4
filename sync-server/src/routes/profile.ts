/**
 * The signed-in person's own profile: username availability, the setup flow and the guided
 * tour, profile edits (with the photo) and privacy. Nobody can change another person's profile:
 * no route here takes a user id, every change applies to the session's user.
 */
import type Router from '@koa/router';
import {
  LIMITS,
  UsernameCheckParams,
  isValidUsername,
  normalizeUsername,
  type UsernameCheckResponse,
} from '@pingme/shared';
import type { AppDeps } from '../deps';
import { isHandleTaken, takenHandles } from '../db/people';
import { currentUser, requireUser } from '../middleware/auth';
import { keyed, mutate } from '../middleware/idempotency';
import { uploadBody } from '../middleware/upload';
import { validated } from '../middleware/validate';
import { setPhoto } from '../mutations/profile';
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, saveImage } from '../services/images';

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

export function profileRoutes(router: Router, deps: AppDeps): void {
  const { db } = deps;

  router.get(
    '/api/username/check/:handle',
    requireUser(db),
    validated({ params: UsernameCheckParams }, async (ctx, { params }) => {
      const me = currentUser(ctx);
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
    }),
  );

  /**
   * A new profile photo: the file itself as the body (any image Content-Type; the bytes decide),
   * read only for a signed-in person, within MAX_IMAGE_BYTES and a cap on uploads at once
   * (middleware/upload.ts). It is re-encoded before the change's transaction (services/images.ts);
   * the answer is the updated SelfUser, like profile.update. Not a named mutation: a device
   * uploads a photo while online, it never waits in the outbox.
   */
  router.put(
    '/api/profile/photo',
    requireUser(db),
    uploadBody({
      limit: MAX_IMAGE_BYTES,
      maxConcurrent: deps.config.uploadMaxConcurrent,
      tooLargeMessage: IMAGE_TOO_LARGE,
    }),
    keyed(db),
    async (ctx) => {
      const stored = await saveImage(deps.config.uploadsDir, ctx.state.upload as Buffer);
      const me = currentUser(ctx);
      await mutate(ctx, db, (uow) =>
        setPhoto({ ...uow, me, config: deps.config, ip: ctx.ip }, stored.url),
      );
    },
  );
}
