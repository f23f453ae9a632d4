import { z } from 'zod';
import { LIMITS, PROFILE_VISIBILITIES } from '../constants';
import { isValidUsername } from '../domain';
import { cleanName } from '../unicode';
import { ClockTime } from './common';

const HANDLE_RULE = `Usernames are ${LIMITS.usernameMin}-${LIMITS.usernameMax} characters of a-z, 0-9 and _`;
/** A handle, NFC and without bidirectional controls (unicode.ts) before the a-z0-9_ rule. */
export const Handle = z
  .string({ message: HANDLE_RULE })
  .overwrite(cleanName)
  .refine(isValidUsername, { message: HANDLE_RULE });

const text = (label: string, max: number) =>
  z
    .string({ message: `${label} must be text` })
    .overwrite((s) => s.normalize('NFC'))
    .trim()
    .max(max, `${label} must be at most ${max} characters`);

/** The route a new profile photo is sent to, as the file itself (docs/api.md, "Profile"). */
export const PHOTO_UPLOAD_PATH = '/api/profile/photo';
export const PHOTO_REMOVAL_ONLY = `profileImageUrl only takes '' (remove the photo): send a new photo as a file to PUT ${PHOTO_UPLOAD_PATH}`;

/**
 * `profileImageUrl` in a JSON body: '' removes the photo. A new photo never travels inside JSON
 * (no data URLs): it is uploaded to PHOTO_UPLOAD_PATH, which keeps every JSON body small.
 */
export const PhotoRemoval = z.literal('', { message: PHOTO_REMOVAL_ONLY });

export const UsernameCheckParams = z.object({
  handle: z.string().max(200, `Usernames are at most ${LIMITS.usernameMax} characters`),
});
export const UsernameCheckResponse = z.object({
  available: z.boolean(),
  handle: z.string(),
  suggestions: z.array(z.string()),
});
export type UsernameCheckResponse = z.infer<typeof UsernameCheckResponse>;

export const CompleteOnboardingBody = z.strictObject({
  handle: Handle,
  bio: text('Bio', LIMITS.bio).optional(),
  location: text('Location', LIMITS.location).optional(),
  profileImageUrl: PhotoRemoval.optional(),
});
export type CompleteOnboardingBody = z.infer<typeof CompleteOnboardingBody>;

export const OnboardingBody = z
  .strictObject({
    step: z
      .number({ message: 'Tour step must be a number' })
      .int('Tour step must be a whole number')
      .min(0, 'Tour step must be at least 0')
      .max(LIMITS.tourSteps, `Tour step must be at most ${LIMITS.tourSteps}`)
      .optional(),
    completed: z.boolean({ message: 'completed must be true or false' }).optional(),
  })
  .refine((b) => b.step !== undefined || b.completed !== undefined, {
    message: 'Send step or completed',
  });
export type OnboardingBody = z.infer<typeof OnboardingBody>;

export const ProfileUpdateBody = z.strictObject({
  handle: Handle.optional(),
  bio: text('Bio', LIMITS.bio).optional(),
  status: text('Status', LIMITS.status).optional(),
  location: text('Location', LIMITS.location).optional(),
  personalLink: text('Personal link', LIMITS.personalLink)
    .refine((s) => s === '' || /^https?:\/\/[^\s]+$/i.test(s), {
      message: 'Personal link must start with http:// or https://',
    })
    .optional(),
  profileImageUrl: PhotoRemoval.optional(),
  tagline: text('Tagline', LIMITS.tagline).optional(),
  quietHoursStart: ClockTime.optional(),
  quietHoursEnd: ClockTime.optional(),
  rateLimitPerDay: z
    .number({ message: 'Daily ping limit must be a number' })
    .int('Daily ping limit must be a whole number')
    .min(1, 'Daily ping limit must be at least 1')
    .max(LIMITS.dailyPingLimitMax, `Daily ping limit must be at most ${LIMITS.dailyPingLimitMax}`)
    .optional(),
});
export type ProfileUpdateBody = z.infer<typeof ProfileUpdateBody>;

export const PrivacySettingsBody = z.strictObject({
  profileVisibility: z.enum(PROFILE_VISIBILITIES, {
    message: "Profile visibility must be 'public' or 'private'",
  }),
});
