/**
 * The person's own record: profile fields and settings, privacy, the guided tour's progress and
 * the onboarding setup. Text fields and settings go through the outbox with the person's pending
 * `users` row; a photo is uploaded at once as a file (PUT /api/profile/photo: a file belongs
 * neither in the outbox nor in JSON) and its answer is stored as a pull would store it; so is the
 * setup's last step, which the screen waits for.
 */
import {
  PHOTO_UPLOAD_PATH,
  SelfUser as SelfUserSchema,
  type MutationInput,
  type ProfileUpdateBody,
  type ProfileVisibility,
  type SelfUser,
  type SyncUser,
} from '@pingme/shared';
import { ApiError, NetworkError, api } from '../api';
import { db } from '../db';
import { rememberUser } from '../session';
import { useSession } from '../stores';
import { PENDING_FIELD, isPending, localWrite } from '../sync/local-write';
import { sendNow } from './send-now';

export const PROFILE_ERROR = 'Failed to update profile. Please try again.';

const TEXT_FIELDS = ['handle', 'bio', 'status', 'location', 'personalLink', 'tagline'] as const;

/** What the server will store: trimmed text, '' clears to null (docs/api.md). */
export function storedChanges(changes: ProfileUpdateBody): Record<string, unknown> {
  const out: Record<string, unknown> = { ...changes };
  for (const key of TEXT_FIELDS) {
    const v = changes[key];
    if (typeof v === 'string') out[key] = v.trim() === '' ? null : v.trim();
  }
  for (const key of ['quietHoursStart', 'quietHoursEnd'] as const) {
    if (changes[key] !== undefined) out[key] = changes[key] || null;
  }
  return out;
}

export const PRIVACY_ERROR = 'Failed to update privacy settings. Please try again.';

/** THE pending row of the person's own record: what they had, with these changes. */
async function pendingSelf(me: SelfUser, changes: Record<string, unknown>) {
  const current = (await db.users.get(me.id)) ?? { ...me, relation: 'self' as const };
  return { ...current, ...changes, relation: 'self', [PENDING_FIELD]: true };
}

/** profile.update through the outbox; the person's row changes at once. */
export async function saveProfile(
  me: SelfUser,
  changes: ProfileUpdateBody,
  errorDescription = PROFILE_ERROR,
): Promise<void> {
  await localWrite({
    mutation: 'profile.update',
    args: changes,
    effects: [{ table: 'users', key: me.id, after: await pendingSelf(me, storedChanges(changes)) }],
    errorToast: { description: errorDescription },
  });
}

/** privacy.update through the outbox (spec sections 2 and 4). */
export async function savePrivacy(me: SelfUser, profileVisibility: ProfileVisibility) {
  await localWrite({
    mutation: 'privacy.update',
    args: { profileVisibility },
    effects: [{ table: 'users', key: me.id, after: await pendingSelf(me, { profileVisibility }) }],
    errorToast: { description: PRIVACY_ERROR },
  });
}

/** The guided tour's progress (onboarding.step), through the outbox; a refusal is only logged. */
export async function saveTourProgress(
  userId: string,
  patch: { onboardingStep?: number; onboardingCompleted?: boolean },
): Promise<void> {
  const self = (await db.users.get(userId)) as SyncUser | undefined;
  const session = useSession.getState();
  if (session.user?.id === userId)
    session.setUser({ ...session.user, ...patch }, session.confirmed);
  await localWrite({
    mutation: 'onboarding.step',
    args: {
      ...(patch.onboardingStep !== undefined ? { step: patch.onboardingStep } : {}),
      ...(patch.onboardingCompleted ? { completed: true } : {}),
    },
    effects:
      self?.relation === 'self'
        ? [{ table: 'users', key: userId, after: { ...self, ...patch } }]
        : [],
  });
}

/**
 * The setup's last step, online: the tour is marked due first (tour-rules.ts). Answers the
 * person as the server now has them.
 */
export async function completeOnboarding(
  me: SelfUser,
  body: MutationInput<'onboarding.complete'>,
): Promise<SelfUser> {
  if (me.onboardingStep === null) await sendNow('onboarding.step', { step: 0 });
  return sendNow('onboarding.complete', body);
}

/** The spec's 'Upload Failed' descriptions (section 8), and the server's own when it is busy. */
export function photoUploadError(err: unknown): string {
  if (err instanceof ApiError && err.status === 413) {
    return 'Image too large. Please try a smaller image or wait for server restart.';
  }
  if (err instanceof ApiError && err.code === 'server_busy' && err.body) return err.body.error;
  if (err instanceof NetworkError || err instanceof TypeError) {
    return 'Network error. Please check your connection and try again.';
  }
  return PROFILE_ERROR;
}

/** Uploads a new photo (the pipeline's JPEG); stores the answer locally. */
export async function sendPhoto(photo: Blob): Promise<SelfUser> {
  return storeSelf(await api.upload(PHOTO_UPLOAD_PATH, photo, { schema: SelfUserSchema }));
}

/** Removes the photo (the spec's empty profileImageUrl); stores the answer locally. */
export async function removePhoto(): Promise<SelfUser> {
  return storeSelf(await sendNow('profile.update', { profileImageUrl: '' }));
}

async function storeSelf(user: SelfUser): Promise<SelfUser> {
  await rememberUser(user);
  await db.transaction('rw', db.users, async () => {
    const current = await db.users.get(user.id);
    // A text edit still waiting keeps its optimistic row; only the photo changes under it.
    if (isPending(current)) {
      await db.users.put({ ...current!, profileImageUrl: user.profileImageUrl });
    } else {
      await db.users.put({ ...user, relation: 'self' });
    }
  });
  return user;
}
