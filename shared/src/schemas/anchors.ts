import { z } from 'zod';
import { ANCHOR_COLOR_FORM_DEFAULT, LIMITS, MOODS } from '../constants';
import { Id, IsoDate } from './common';
import { Emoji } from './pings';

export const AnchorPerson = z.object({
  id: Id,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  email: z.string().nullable(),
});

export const ANCHOR_STATUSES = ['pending', 'accepted', 'declined'] as const;

export const Anchor = z.object({
  id: Id,
  /** The person who asked. */
  userId: Id,
  friendId: Id,
  user: AnchorPerson,
  friend: AnchorPerson,
  label: z.string().nullable(),
  text: z.string(),
  emoji: z.string(),
  color: z.string(),
  status: z.enum(ANCHOR_STATUSES),
  createdAt: IsoDate,
  respondedAt: IsoDate.nullable(),
});
export type Anchor = z.infer<typeof Anchor>;

export const CreateAnchorBody = z.strictObject({
  id: Id.optional(),
  friendId: Id,
  text: z
    .string({ message: 'Please enter an anchor ping message.' })
    .trim()
    .min(1, 'Please enter an anchor ping message.')
    .max(LIMITS.promptText, `Anchor messages must be at most ${LIMITS.promptText} characters`),
  emoji: Emoji()
    .optional()
    .transform((e) => e || '⚓'),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'Colour must look like #e35120')
    .optional()
    .transform((c) => c ?? ANCHOR_COLOR_FORM_DEFAULT),
  label: z.string().trim().max(40).optional(),
});

export const CreateAnchorResponse = Anchor.extend({ autoAccepted: z.boolean() });
export type CreateAnchorResponse = z.infer<typeof CreateAnchorResponse>;

export const RespondAnchorBody = z.strictObject({
  response: z.enum(['accept', 'decline'], { message: "Response must be 'accept' or 'decline'" }),
});

// ---------- moods ----------

export const Mood = z.object({
  id: Id,
  userId: Id,
  friendId: Id,
  mood: z.enum(MOODS),
  emoji: z.string(),
  note: z.string().nullable(),
  createdAt: IsoDate,
});
export type Mood = z.infer<typeof Mood>;

export const MoodBody = z.strictObject({
  id: Id.optional(),
  friendId: Id,
  mood: z.enum(MOODS, { message: 'Please select a mood to share' }),
  emoji: Emoji(),
  note: z
    .string()
    .trim()
    .max(LIMITS.moodNote, `Notes must be at most ${LIMITS.moodNote} characters`)
    .nullable()
    .optional()
    .transform((n) => n || null),
});
