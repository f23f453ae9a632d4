/**
 * The profile's writes. Text fields and settings go through the outbox (localWrite) with an
 * optimistic `users` row; a photo is sent directly (a data URL of up to a few MB does not belong
 * in the outbox) and its answer is stored like a pull would store it.
 */
import { SelfUser, type ProfileUpdateBody } from '@pingme/shared';
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

/** The spec's 'Upload Failed' descriptions (section 8). */
export function photoUploadError(err: unknown): string {
  if (err instanceof ApiError && err.status === 413) {
    return 'Image too large. Please try a smaller image or wait for server restart.';
  }
  if (err instanceof NetworkError || err instanceof TypeError) {
    return 'Network error. Please check your connection and try again.';
  }
  return PROFILE_ERROR;
}

/** Sends a new photo (a data URL) or '' to remove it; stores the answer locally. */
export async function sendPhoto(profileImageUrl: string): Promise<SelfUser> {
  const user = await api.put('/api/profile/update', { profileImageUrl }, { schema: SelfUser });
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
