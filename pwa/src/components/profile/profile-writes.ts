/**
 * The profile's writes. Text fields and settings go through the outbox (localWrite) with an
 * optimistic `users` row; a photo is uploaded directly as a file (PUT /api/profile/photo: a file
 * does not belong in the outbox, nor in JSON) and its answer is stored like a pull would store it.
 */
import { PHOTO_UPLOAD_PATH, SelfUser, type ProfileUpdateBody } from '@pingme/shared';
import { ApiError, NetworkError, api } from '../../api';
import { db } from '../../db';
import { rememberUser } from '../../session';
import { PENDING_FIELD, isPending, localWrite } from '../../sync/local-write';

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

/** PUT /api/profile/update through the outbox; the person's row changes at once. */
export async function saveProfile(
  me: SelfUser,
  changes: ProfileUpdateBody,
  errorDescription = PROFILE_ERROR,
): Promise<void> {
  const current = (await db.users.get(me.id)) ?? { ...me, relation: 'self' as const };
  await localWrite({
    request: { method: 'PUT', path: '/api/profile/update', body: changes },
    effects: [
      {
        table: 'users',
        key: me.id,
        after: { ...current, ...storedChanges(changes), relation: 'self', [PENDING_FIELD]: true },
      },
    ],
    errorToast: { description: errorDescription },
  });
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
  return storeSelf(await api.upload(PHOTO_UPLOAD_PATH, photo, { schema: SelfUser }));
}

/** Removes the photo (the spec's empty profileImageUrl); stores the answer locally. */
export async function removePhoto(): Promise<SelfUser> {
  return storeSelf(
    await api.put('/api/profile/update', { profileImageUrl: '' }, { schema: SelfUser }),
  );
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
