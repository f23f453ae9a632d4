/**
 * Ping writes, through localWrite (optimistic rows + outbox entry in one transaction). Screens
 * call these; the engine sends them, rolls a refusal back and shows its toast.
 *
 *   sendPromptPing({ prompt, from, to: [friend] })   one friend → POST /api/pings
 *   sendPromptPing({ prompt, from, to: [a, b] })     several → POST /api/pings/group
 *   sendCustomPing({ from, to, text, emoji })         POST /api/pings/custom
 *   reactToPing(ping, userId, 'heart')                 POST /api/pings/{id}/reactions
 *   markPingRead(ping)                                 PATCH /api/pings/{id}/read (refusal logged only)
 */
import {
  DEFAULT_PROMPT_EMOJI,
  receiverView,
  uuidv7,
  type Ping,
  type Prompt,
  type Reaction,
  type ReactionType,
  type UserSummary,
} from '@pingme/shared';
import { localWrite, PENDING_FIELD } from './local-write';

/** A ping as Dexie holds it: the server's row, or an optimistic one while its write waits. */
export type LocalPing = Ping & { pending?: boolean; pendingReaction?: ReactionType };

export const SEND_PINGS_ERROR = 'Failed to send pings. Please try again.';
export const REACT_ERROR = 'Failed to react to ping';
export const CUSTOM_PING_ERROR = {
  title: 'Failed to send',
  description: 'Could not send your custom ping',
  // Spec section 8: 'Failed to send – Could not send your custom ping' (server message preferred).
  preferServerMessage: true,
};

export function summary(user: UserSummary): UserSummary {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
  };
}

function optimisticPing(fields: Partial<Ping> & Pick<Ping, 'id' | 'kind' | 'sender' | 'receiver'>) {
  const ping: LocalPing = {
    senderId: fields.sender.id,
    receiverId: fields.receiver.id,
    prompt: null,
    customText: null,
    customEmoji: null,
    anchorId: null,
    groupId: null,
    createdAt: new Date().toISOString(),
    isRead: false,
    readAt: null,
    isBookmarked: false,
    reactions: [],
    ...fields,
    [PENDING_FIELD]: true,
  };
  return ping;
}

/** Sends a prompt to one friend or, as a group ping, to several. Resolves with the new pings. */
export async function sendPromptPing(args: {
  prompt: Pick<Prompt, 'id' | 'text' | 'emoji'>;
  from: UserSummary;
  to: UserSummary[];
}): Promise<LocalPing[]> {
  const { prompt, from, to } = args;
  if (to.length === 0) throw new Error('Please select at least one friend to ping');
  const groupId = to.length > 1 ? uuidv7() : null;
  const pings = to.map((friend) =>
    optimisticPing({
      id: uuidv7(),
      kind: 'prompt',
      sender: summary(from),
      receiver: summary(friend),
      prompt: { id: prompt.id, text: prompt.text, emoji: prompt.emoji || DEFAULT_PROMPT_EMOJI },
      groupId,
    }),
  );
  const request =
    to.length === 1
      ? {
          method: 'POST' as const,
          path: '/api/pings',
          body: { id: pings[0]!.id, promptId: prompt.id, receiverId: to[0]!.id },
        }
      : {
          method: 'POST' as const,
          path: '/api/pings/group',
          body: {
            groupId,
            promptId: prompt.id,
            receiverIds: to.map((f) => f.id),
            ids: pings.map((p) => p.id),
          },
        };
  await localWrite({
    request,
    effects: pings.map((p) => ({ table: 'pings' as const, key: p.id, after: p })),
    errorToast: { description: SEND_PINGS_ERROR },
  });
  return pings;
}

export async function sendCustomPing(args: {
  from: UserSummary;
  to: UserSummary;
  text: string;
  emoji?: string;
}): Promise<LocalPing> {
  const customText = args.text.trim();
  const customEmoji = args.emoji?.trim() || DEFAULT_PROMPT_EMOJI;
  const ping = optimisticPing({
    id: uuidv7(),
    kind: 'custom',
    sender: summary(args.from),
    receiver: summary(args.to),
    customText,
    customEmoji,
  });
  await localWrite({
    request: {
      method: 'POST',
      path: '/api/pings/custom',
      body: { id: ping.id, receiverId: args.to.id, customText, customEmoji },
    },
    effects: [{ table: 'pings', key: ping.id, after: ping }],
    errorToast: CUSTOM_PING_ERROR,
  });
  return ping;
}

/** One reaction per person: a new one replaces theirs (as the server does). */
export async function reactToPing(
  ping: LocalPing,
  userId: string,
  reactionType: ReactionType,
): Promise<void> {
  const reaction: Reaction = {
    id: uuidv7(),
    pingId: ping.id,
    userId,
    reactionType,
    createdAt: new Date().toISOString(),
  };
  const after: LocalPing = {
    ...ping,
    reactions: [...ping.reactions.filter((r) => r.userId !== userId), reaction],
    [PENDING_FIELD]: true,
    pendingReaction: reactionType,
  };
  await localWrite({
    request: {
      method: 'POST',
      path: `/api/pings/${ping.id}/reactions`,
      body: { id: reaction.id, reactionType },
    },
    effects: [{ table: 'pings', key: ping.id, after }],
    errorToast: { description: REACT_ERROR },
  });
}

/** Spec section 4: a received card shown for 1 s is read. A refusal is only logged. */
export async function markPingRead(ping: LocalPing): Promise<void> {
  const after: LocalPing = {
    ...ping,
    isRead: true,
    readAt: new Date().toISOString(),
    [PENDING_FIELD]: true,
  };
  await localWrite({
    request: { method: 'PATCH', path: `/api/pings/${ping.id}/read`, body: {} },
    effects: [{ table: 'pings', key: ping.id, after }],
  });
}

/** What the reader sees: the receiver's wording of a prompt, or the custom text. */
export function pingText(ping: Ping, viewerId: string | undefined): string {
  const text = ping.prompt?.text ?? ping.customText ?? '';
  return ping.prompt && ping.receiverId === viewerId ? receiverView(text) : text;
}

export function pingEmoji(ping: Ping): string {
  return ping.prompt?.emoji || ping.customEmoji || DEFAULT_PROMPT_EMOJI;
}
