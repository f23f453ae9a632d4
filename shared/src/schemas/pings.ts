import { z } from 'zod';
import { DEFAULT_PROMPT_EMOJI, LIMITS, REACTION_TYPES } from '../constants';
import { Id, IsoDate } from './common';
import { UserSummary } from './users';

/** At most `max` user-perceived characters (an emoji with modifiers counts once). */
export function graphemeCount(s: string): number {
  let n = 0;
  for (const _ of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)) n++;
  return n;
}

export const Emoji = (max = LIMITS.promptEmoji) =>
  z
    .string()
    .trim()
    .max(64, `Emoji must be at most ${max} characters`)
    .refine((s) => graphemeCount(s) <= max, { message: `Emoji must be at most ${max} characters` });

/** An id the person must choose: a missing one gets `missing`, a malformed one 'Must be a valid id'. */
const ChosenId = (missing: string) =>
  z.uuid({ error: (iss) => (iss.input === undefined ? missing : 'Must be a valid id') });

export const PromptText = z
  .string({ message: 'Please enter a prompt text' })
  .trim()
  .min(1, 'Please enter a prompt text')
  .max(LIMITS.promptText, `Prompt text must be at most ${LIMITS.promptText} characters`);

// ---------- prompts ----------

export const PromptAssignment = z.object({ friendId: Id, friend: UserSummary });

export const Prompt = z.object({
  id: Id,
  text: z.string(),
  emoji: z.string(),
  isDefault: z.boolean(),
  ownerId: Id.nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  assignments: z.array(PromptAssignment),
});
export type Prompt = z.infer<typeof Prompt>;

export const CreatePromptBody = z.strictObject({
  /** Client-generated UUIDv7; the server makes one when absent. */
  id: Id.optional(),
  text: PromptText,
  emoji: Emoji()
    .optional()
    .transform((e) => e || DEFAULT_PROMPT_EMOJI),
});
export type CreatePromptBody = z.input<typeof CreatePromptBody>;

export const UpdatePromptBody = z.strictObject({
  text: PromptText,
  emoji: Emoji()
    .optional()
    .transform((e) => e || DEFAULT_PROMPT_EMOJI),
});

export const AssignPromptBody = z.strictObject({
  promptId: ChosenId('Please choose a prompt'),
  friendId: ChosenId('Please select at least one friend to assign this prompt to.'),
});

/** GET /api/prompts/default and GET /api/prompts/user. */
export const PromptList = z.array(Prompt);

// ---------- pings ----------

export const Reaction = z.object({
  id: Id,
  pingId: Id,
  userId: Id,
  reactionType: z.enum(REACTION_TYPES),
  createdAt: IsoDate,
});
export type Reaction = z.infer<typeof Reaction>;

export const PING_KINDS = ['prompt', 'custom', 'surprise', 'anchor'] as const;

export const Ping = z.object({
  id: Id,
  kind: z.enum(PING_KINDS),
  senderId: Id,
  receiverId: Id,
  sender: UserSummary,
  receiver: UserSummary,
  /** The prompt as it read when sent (null for custom pings). */
  prompt: z.object({ id: Id.nullable(), text: z.string(), emoji: z.string() }).nullable(),
  customText: z.string().nullable(),
  customEmoji: z.string().nullable(),
  anchorId: Id.nullable(),
  groupId: Id.nullable(),
  /** When the server received it. */
  createdAt: IsoDate,
  /**
   * When the sender wrote it (their device's clock, never after createdAt). The server always
   * sends it; a device's copy pulled before it existed has none, which means createdAt.
   */
  writtenAt: IsoDate.optional(),
  isRead: z.boolean(),
  readAt: IsoDate.nullable(),
  /** Whether the person asking bookmarked it (a moment). */
  isBookmarked: z.boolean(),
  reactions: z.array(Reaction),
});
export type Ping = z.infer<typeof Ping>;

export const PingList = z.array(Ping);

/**
 * When the person wrote a ping, as their device's clock says (an outbox entry sent later). The
 * server keeps it where it is earlier than its own time, and its own time otherwise.
 */
export const WrittenAt = z.iso.datetime({ offset: true, message: 'writtenAt must be an ISO time' });

export const SendPingBody = z.strictObject({
  id: Id.optional(),
  writtenAt: WrittenAt.optional(),
  promptId: ChosenId('Please choose a prompt'),
  receiverId: ChosenId('Please select a friend to send the ping to.'),
});

export const GroupPingBody = z
  .strictObject({
    groupId: Id.optional(),
    writtenAt: WrittenAt.optional(),
    promptId: ChosenId('Please choose a prompt'),
    receiverIds: z
      .array(Id, { message: 'Please select at least one friend to ping' })
      .min(1, 'Please select at least one friend to ping')
      .max(50, 'A group ping goes to at most 50 friends'),
    /** Optional client ids, one per receiver, in the same order. */
    ids: z.array(Id).optional(),
  })
  .refine((b) => new Set(b.receiverIds).size === b.receiverIds.length, {
    message: 'Each friend can be chosen only once',
    path: ['receiverIds'],
  })
  .refine((b) => !b.ids || b.ids.length === b.receiverIds.length, {
    message: 'Give one id per receiver',
    path: ['ids'],
  })
  .refine((b) => !b.ids || new Set(b.ids).size === b.ids.length, {
    message: 'Each ping needs its own id',
    path: ['ids'],
  });

/** POST /api/pings/group: one ping per receiver, in the order of receiverIds. */
export const GroupPingResponse = z.object({ groupId: Id, pings: z.array(Ping) });
export type GroupPingResponse = z.infer<typeof GroupPingResponse>;

export const CustomPingBody = z.strictObject({
  id: Id.optional(),
  writtenAt: WrittenAt.optional(),
  receiverId: ChosenId('Please select a friend to send the ping to.'),
  customText: z
    .string({ message: 'Please write a message to send' })
    .trim()
    .min(1, 'Please write a message to send')
    .max(LIMITS.customPingText, `Messages must be at most ${LIMITS.customPingText} characters`),
  /** Absent or empty: 💫 for a surprise, 💭 otherwise (the server fills it in). */
  customEmoji: Emoji()
    .optional()
    .transform((e) => e || undefined),
  /** A surprise message (spec: Surprise message dialog) rather than a plain custom ping. */
  surprise: z.boolean().optional(),
  /**
   * Sent from an anchor: the anchor's id (the receiver sees it as anchor activity). When it names
   * no accepted anchor between the two, the ping is still delivered, as a plain custom ping.
   */
  anchorId: Id.optional(),
});

export const ReactionBody = z.strictObject({
  id: Id.optional(),
  reactionType: z.enum(REACTION_TYPES, { message: 'Reaction must be heart, yes or wow' }),
});

/** One row of GET /api/pings/reactions: a reaction with the person who reacted. */
export const ReactionListItem = Reaction.extend({ user: UserSummary });
export type ReactionListItem = z.infer<typeof ReactionListItem>;
export const ReactionList = z.array(ReactionListItem);

export const MOMENT_TITLE_MAX = 100;
export const MOMENT_DESCRIPTION_MAX = 200;

export const BookmarkBody = z.strictObject({
  bookmarked: z.boolean({ message: 'bookmarked must be true or false' }).default(true),
  /** Client-generated id of the moment a bookmark creates; the server makes one when absent. */
  momentId: Id.optional(),
  title: z
    .string({ message: 'Title must be text' })
    .trim()
    .max(MOMENT_TITLE_MAX, `Titles must be at most ${MOMENT_TITLE_MAX} characters`)
    .optional(),
  description: z
    .string({ message: 'Description must be text' })
    .trim()
    .max(
      MOMENT_DESCRIPTION_MAX,
      `Descriptions must be at most ${MOMENT_DESCRIPTION_MAX} characters`,
    )
    .optional(),
});

export const CountResponse = z.object({ count: z.number().int() });
export type CountResponse = z.infer<typeof CountResponse>;

export const PingIdParams = z.object({ id: Id });
