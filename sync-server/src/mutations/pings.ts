/**
 * The ping mutations: sending (one friend, a group, a custom message, a surprise, an anchor
 * ping), read marks, reactions and bookmarks. Every answer with a ping is loadPings' shape, the
 * same as /api/sync/pull delivers to the caller.
 */
import {
  DEFAULT_PROMPT_EMOJI,
  DEFAULT_SURPRISE_EMOJI,
  MOMENT_TITLE_MAX,
  uuidv7,
  type CountResponse,
  type GroupPingResponse,
  type MutationArgs,
  type Ping,
  type Reaction,
} from '@pingme/shared';
import { nowIso, type Db } from '../db/connection';
import {
  findGroupPings,
  findPingAsSeen,
  findPingAsSeenAndReact,
  findPings,
  loadPings,
  markAllRead,
  markRead,
} from '../db/pings';
import { deleteMoment, findMoment, insertMoment, momentOwner, updateMoment } from '../db/moments';
import { replaceReaction } from '../db/reactions';
import type { PingRow } from '../db/schema';
import { AppError, conflict, notFound } from '../errors';
import { ID_TAKEN, existingOwnPing, promptContent, sendPings } from '../services/pings';
import { isAcceptedAnchorBetween, type PingContent } from '../db/ping-sends';
import type { HandlerTable, MutationContext, Outcome } from './context';

export const PING_NOT_FOUND = 'Ping not found';

const isInvolved = (p: PingRow, viewerId: string) =>
  p.senderId === viewerId || p.receiverId === viewerId;

/**
 * A group create whose groupId or ping ids already exist: the sender's own group is answered
 * as stored (its pings in the order of this request's receivers); anything else is a 409.
 */
async function existingGroup(
  trx: Db,
  me: string,
  args: MutationArgs<'ping.sendGroup'>,
): Promise<GroupPingResponse | undefined> {
  let groupId = args.groupId;
  if (args.ids?.length) {
    const taken = await findPings(trx, args.ids);
    if (taken.some((p) => p.senderId !== me || !p.groupId || (groupId && p.groupId !== groupId)))
      throw conflict(ID_TAKEN);
    groupId ??= taken[0]?.groupId ?? undefined;
  }
  if (!groupId) return undefined;
  const rows = await findGroupPings(trx, groupId);
  if (rows.length === 0) return undefined;
  if (rows.some((p) => p.senderId !== me)) throw conflict(ID_TAKEN);
  const order = new Map(args.receiverIds.map((id, i) => [id, i]));
  const rank = (p: PingRow) => order.get(p.receiverId) ?? Number.MAX_SAFE_INTEGER;
  const ids = [...rows].sort((x, y) => rank(x) - rank(y)).map((p) => p.id);
  return { groupId, pings: await loadPings(trx, me, ids) };
}

/**
 * One ping to one friend (ping.send, ping.sendCustom). A ping id the sender already used answers
 * that ping as stored, whatever the send would meet now (the prompt gone, a friendship ended, the
 * daily limit): the stored ping is looked up when the send is refused, not before every send
 * (a refused send has written nothing; its id, if taken, was not inserted).
 */
async function sendOne(
  { trx, changes, me }: MutationContext,
  args: { id?: string; receiverId: string; writtenAt?: string },
  content: () => Promise<PingContent>,
): Promise<Outcome<Ping>> {
  try {
    const [ping] = await sendPings(trx, changes, me.id, {
      receiverIds: [args.receiverId],
      ids: args.id ? [args.id] : [],
      groupId: null,
      content: await content(),
      writtenAt: args.writtenAt,
    });
    return { status: 201, body: ping! };
  } catch (err) {
    if (!args.id || !(err instanceof AppError)) throw err;
    const replay = await existingOwnPing(trx, me.id, args.id);
    if (replay) return { status: 200, body: replay };
    throw err;
  }
}

/** A moment is titled by what the ping said, unless the person gives a title. */
function defaultMomentTitle(p: PingRow): string {
  const text = (p.customText ?? p.promptText ?? 'A ping').trim() || 'A ping';
  const chars = [...text];
  return chars.length <= MOMENT_TITLE_MAX
    ? text
    : chars.slice(0, MOMENT_TITLE_MAX - 1).join('') + '…';
}

export const pingMutations: HandlerTable<
  | 'ping.send'
  | 'ping.sendGroup'
  | 'ping.sendCustom'
  | 'ping.markRead'
  | 'ping.markAllRead'
  | 'ping.react'
  | 'ping.bookmark'
> = {
  'ping.send': (c, args) => sendOne(c, args, () => promptContent(c.trx, c.me.id, args.promptId)),

  async 'ping.sendGroup'({ trx, changes, me }, args) {
    const replay = await existingGroup(trx, me.id, args);
    if (replay) return { status: 200, body: replay };
    const content = await promptContent(trx, me.id, args.promptId);
    const groupId = args.groupId ?? uuidv7();
    const pings = await sendPings(trx, changes, me.id, {
      receiverIds: args.receiverIds,
      ids: args.ids ?? [],
      groupId,
      content,
      writtenAt: args.writtenAt,
    });
    return { status: 201, body: { groupId, pings } };
  },

  'ping.sendCustom': (c, args) =>
    sendOne(c, args, async (): Promise<PingContent> => {
      const anchored =
        args.anchorId !== undefined &&
        (await isAcceptedAnchorBetween(c.trx, args.anchorId, c.me.id, args.receiverId));
      return {
        kind: anchored ? 'anchor' : args.surprise ? 'surprise' : 'custom',
        promptId: null,
        promptText: null,
        promptEmoji: null,
        customText: args.customText,
        customEmoji:
          args.customEmoji ?? (args.surprise ? DEFAULT_SURPRISE_EMOJI : DEFAULT_PROMPT_EMOJI),
        anchorId: anchored ? args.anchorId! : null,
      };
    }),

  async 'ping.markAllRead'({ trx, changes, me }) {
    const changed = await markAllRead(trx, me.id);
    // After a block the read mark stays with the reader: the sender is not told (loadPings).
    for (const p of changed) {
      await changes.record(p.blocked ? [me.id] : [me.id, p.senderId], 'ping', p.id);
    }
    return { body: { count: changed.length } satisfies CountResponse };
  },

  async 'ping.markRead'({ trx, changes, me }, { id }) {
    const found = await findPingAsSeen(trx, id, me.id);
    // Only the receiver reads a ping; to anyone else it does not exist here.
    if (!found || found.ping.receiverId !== me.id) throw notFound(PING_NOT_FOUND);
    const readAt = await markRead(trx, id, me.id);
    if (readAt === undefined) return { body: await found.asSeen() };
    // After a block the read mark stays with the reader: the sender is not told (loadPings).
    await changes.record(found.blocked ? [me.id] : [found.ping.senderId, me.id], 'ping', id);
    return { body: await found.asSeen({ isRead: 1, readAt }) };
  },

  async 'ping.react'({ trx, changes, me }, args) {
    const asked: Reaction = {
      id: args.id ?? uuidv7(),
      pingId: args.pingId,
      userId: me.id,
      reactionType: args.reactionType,
      createdAt: nowIso(),
    };
    // One read finds the ping, its reactions and whether the id is taken on another ping; on
    // PostgreSQL the same statement writes the reaction when the checks below let it.
    const { found, written } = await findPingAsSeenAndReact(trx, asked);
    // Old pings stay with both after a block, but nothing new reaches the other person.
    if (!found || !isInvolved(found.ping, me.id) || found.blocked) throw notFound(PING_NOT_FOUND);
    const p = found.ping;
    if (args.id) {
      if (found.reactionIdElsewhere) throw conflict(ID_TAKEN);
      const existing = found.reactions.find((r) => r.id === args.id);
      if (existing) {
        if (existing.userId !== me.id) throw conflict(ID_TAKEN);
        return { status: 200, body: await found.asSeen() };
      }
    }
    if (!written) await replaceReaction(trx, asked);
    await changes.record([p.senderId, p.receiverId], 'ping', args.pingId);
    // The ping's own row is as read above: only the viewer's reaction changed.
    return { status: 201, body: await found.asSeen({ reaction: asked }) };
  },

  async 'ping.bookmark'({ trx, changes, me }, args) {
    const found = await findPingAsSeen(trx, args.pingId, me.id);
    if (!found || !isInvolved(found.ping, me.id)) throw notFound(PING_NOT_FOUND);
    const p = found.ping;
    const existing = await findMoment(trx, me.id, args.pingId);
    if (args.bookmarked && existing) {
      const patch = {
        ...(args.title ? { title: args.title } : {}),
        ...(args.description !== undefined ? { description: args.description || null } : {}),
      };
      if (Object.keys(patch).length) {
        await updateMoment(trx, existing.id, patch);
        await changes.record([me.id], 'moment', existing.id);
      }
    } else if (args.bookmarked) {
      if (args.momentId && (await momentOwner(trx, args.momentId))) throw conflict(ID_TAKEN);
      const momentId = args.momentId ?? uuidv7();
      await insertMoment(trx, {
        id: momentId,
        userId: me.id,
        pingId: args.pingId,
        title: args.title || defaultMomentTitle(p),
        description: args.description || null,
      });
      await changes.record([me.id], 'moment', momentId);
      await changes.record([p.senderId, p.receiverId], 'ping', args.pingId);
    } else if (existing) {
      await deleteMoment(trx, existing.id);
      await changes.record([me.id], 'moment', existing.id, 'delete');
      await changes.record([p.senderId, p.receiverId], 'ping', args.pingId);
    }
    // The viewer's bookmark now stands exactly when they asked for one.
    return { body: await found.asSeen({ bookmarked: args.bookmarked }) };
  },
};
