/**
 * Every ping a person sends, reacts to or reads, through the outbox (sync/local-write.ts): the
 * pending row shows at once and the server's row replaces it; a refusal rolls it back with the
 * screen's toast (spec section 8). Home, the friend screens, the Library and the dialogs all send
 * with `sendPing`:
 *
 *   sendPing(me, friend, { kind: 'prompt', prompt }, errorToast)          ping.send
 *   sendPing(me, [a, b], { kind: 'prompt', prompt }, errorToast)          ping.sendGroup
 *   sendPing(me, friend, { kind: 'custom', text, emoji }, errorToast)     ping.sendCustom
 *   (kind 'surprise': a surprise message; kind 'anchor': an anchor's ping, text rewritten)
 *   reactToPing(ping, me, 'heart')                                                     ping.react
 *   markPingRead(ping)                                                                 ping.markRead
 *   markAllPingsRead(meId)                                                             ping.markAllRead
 *   bookmarkPing(ping, true)                                                           ping.bookmark
 *
 * Every send carries `writtenAt`, the time of the local write: a ping written offline keeps the
 * time the person wrote it, not the time it reached the server (docs/decisions.md).
 */
import {
  DEFAULT_PROMPT_EMOJI,
  DEFAULT_SURPRISE_EMOJI,
  anchorCustomRewrite,
  uuidv7,
  type Anchor,
  type Ping,
  type Prompt,
  type Reaction,
  type ReactionType,
  type UserSummary,
} from '@pingme/shared';
import { PENDING_FIELD, localWrite } from '../sync/local-write';
import { summaryOf, type ErrorToast } from './pending';

/** A ping as Dexie holds it: the server's row, or an optimistic one while its write waits. */
export type LocalPing = Ping & { pending?: boolean; pendingReaction?: ReactionType };

/** The spec's toasts of the ping screens (section 8). */
export const SEND_PINGS_ERROR = 'Failed to send pings. Please try again.';
export const SEND_PING_ERROR = 'Failed to send ping. Please try again.';
export const REACT_ERROR = 'Failed to react to ping';
export const CUSTOM_PING_ERROR = {
  title: 'Failed to send',
  description: 'Could not send your custom ping',
  // 'Failed to send – Could not send your custom ping' (the server's message when present).
  preferServerMessage: true,
} satisfies ErrorToast;

/** What a ping says. */
export type PingContent =
  | { kind: 'prompt'; prompt: Pick<Prompt, 'id' | 'text' | 'emoji'> }
  /** A custom message, or a surprise; the emoji defaults as on the server (💭, 💫). */
  | { kind: 'custom' | 'surprise'; text: string; emoji?: string }
  /** An anchor's ping (spec section 5): its text rewritten by anchorCustomRewrite. */
  | { kind: 'anchor'; anchor: Pick<Anchor, 'id' | 'text' | 'emoji'> };

/** The fields of a ping that depend on what it says. */
type Said = Pick<Ping, 'kind' | 'prompt' | 'customText' | 'customEmoji' | 'anchorId'>;

function said(content: PingContent): Said {
  const none = { prompt: null, customText: null, customEmoji: null, anchorId: null };
  switch (content.kind) {
    case 'prompt': {
      const { id, text, emoji } = content.prompt;
      return {
        ...none,
        kind: 'prompt',
        prompt: { id, text, emoji: emoji || DEFAULT_PROMPT_EMOJI },
      };
    }
    case 'anchor':
      return {
        ...none,
        kind: 'anchor',
        customText: anchorCustomRewrite(content.anchor.text),
        customEmoji: content.anchor.emoji || DEFAULT_PROMPT_EMOJI,
        anchorId: content.anchor.id,
      };
    default:
      return {
        ...none,
        kind: content.kind,
        customText: content.text.trim(),
        customEmoji:
          content.emoji?.trim() ||
          (content.kind === 'surprise' ? DEFAULT_SURPRISE_EMOJI : DEFAULT_PROMPT_EMOJI),
      };
  }
}

/** THE pending row of a ping: exactly the shape the pull delivers, marked pending. */
export function pendingPing(o: {
  id: string;
  from: UserSummary;
  to: UserSummary;
  said: Said;
  groupId?: string | null;
  at?: string;
}): LocalPing {
  const at = o.at ?? new Date().toISOString();
  return {
    id: o.id,
    senderId: o.from.id,
    receiverId: o.to.id,
    sender: summaryOf(o.from),
    receiver: summaryOf(o.to),
    ...o.said,
    groupId: o.groupId ?? null,
    createdAt: at,
    writtenAt: at,
    isRead: false,
    readAt: null,
    isBookmarked: false,
    reactions: [],
    [PENDING_FIELD]: true,
  };
}

/** The mutation and arguments that send `rows` (one per receiver, in order). */
function sendCall(content: PingContent, rows: readonly LocalPing[], groupId: string | null) {
  const first = rows[0]!;
  const writtenAt = first.createdAt;
  if (content.kind === 'prompt') {
    return rows.length === 1
      ? ({
          mutation: 'ping.send',
          args: {
            id: first.id,
            writtenAt,
            promptId: content.prompt.id,
            receiverId: first.receiverId,
          },
        } as const)
      : ({
          mutation: 'ping.sendGroup',
          args: {
            groupId: groupId!,
            writtenAt,
            promptId: content.prompt.id,
            receiverIds: rows.map((p) => p.receiverId),
            ids: rows.map((p) => p.id),
          },
        } as const);
  }
  const given = content.kind === 'anchor' ? content.anchor.emoji : content.emoji?.trim();
  return {
    mutation: 'ping.sendCustom',
    args: {
      id: first.id,
      writtenAt,
      receiverId: first.receiverId,
      customText: first.customText!,
      ...(given ? { customEmoji: given } : {}),
      ...(content.kind === 'surprise' ? { surprise: true } : {}),
      ...(content.kind === 'anchor' ? { anchorId: content.anchor.id } : {}),
    },
  } as const;
}

/**
 * Sends a ping: a prompt to one friend or, as a group ping, to several; anything else to exactly
 * one. Resolves with the pending rows once they and the outbox entry are durable.
 */
export async function sendPing(
  from: UserSummary,
  to: UserSummary | readonly UserSummary[],
  content: PingContent,
  errorToast: ErrorToast,
): Promise<LocalPing[]> {
  const receivers: readonly UserSummary[] = Array.isArray(to) ? to : [to];
  if (receivers.length === 0) throw new Error('Please select at least one friend to ping');
  if (content.kind !== 'prompt' && receivers.length !== 1) {
    throw new Error('A custom, surprise or anchor ping goes to one friend');
  }
  const groupId = receivers.length > 1 ? uuidv7() : null;
  const at = new Date().toISOString();
  const fields = said(content);
  const rows = receivers.map((friend) =>
    pendingPing({ id: uuidv7(), from, to: friend, said: fields, groupId, at }),
  );
  await localWrite({
    ...sendCall(content, rows, groupId),
    effects: rows.map((p) => ({ table: 'pings' as const, key: p.id, after: p })),
    errorToast,
  });
  return rows;
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
    mutation: 'ping.react',
    args: { pingId: ping.id, id: reaction.id, reactionType },
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
    mutation: 'ping.markRead',
    args: { id: ping.id },
    effects: [{ table: 'pings', key: ping.id, after }],
  });
}

/**
 * Spec section 4: when the received pings shown include unread ones, all are marked read 2 s
 * later. One write; every unread received ping on the device turns read at once.
 */
export async function markAllPingsRead(meId: string, unread: readonly LocalPing[]): Promise<void> {
  const at = new Date().toISOString();
  await localWrite({
    mutation: 'ping.markAllRead',
    args: {},
    effects: unread
      .filter((p) => p.receiverId === meId && !p.isRead)
      .map((p) => ({
        table: 'pings' as const,
        key: p.id,
        after: { ...p, isRead: true, readAt: at, [PENDING_FIELD]: true },
      })),
  });
}

export const BOOKMARK_ERROR = 'Failed to bookmark ping. Please try again.';

/** Bookmarks a ping (a moment on the server, listed on the profile) or removes the bookmark. */
export async function bookmarkPing(ping: LocalPing, bookmarked: boolean): Promise<void> {
  const after: LocalPing = { ...ping, isBookmarked: bookmarked, [PENDING_FIELD]: true };
  await localWrite({
    mutation: 'ping.bookmark',
    args: { pingId: ping.id, bookmarked },
    effects: [{ table: 'pings', key: ping.id, after }],
    errorToast: { description: BOOKMARK_ERROR },
  });
}
