/**
 * Pings: sending (one friend, a group, custom), reading, reacting and bookmarking.
 * Every answer with a ping uses loadPings, the same shape /api/sync/pull delivers.
 */
import Router from '@koa/router';
import {
  BookmarkBody,
  CustomPingBody,
  DEFAULT_PROMPT_EMOJI,
  DEFAULT_SURPRISE_EMOJI,
  GroupPingBody,
  MOMENT_TITLE_MAX,
  PingIdParams,
  PingsWithParams,
  ReactionBody,
  SendPingBody,
  uuidv7,
  type CountResponse,
  type GroupPingResponse,
  type Ping,
} from '@pingme/shared';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { AppDeps } from '../app';
import { blocksWith, isBlockedEitherWay } from '../db/blocks';
import type { Db } from '../db/connection';
import { areFriends } from '../db/friendships';
import {
  countSentAndReceived,
  countUnread,
  deleteMoment,
  findGroupPings,
  findMoment,
  findPing,
  findPings,
  findReactionById,
  insertMoment,
  isAcceptedAnchorBetween,
  loadPings,
  markAllRead,
  markRead,
  momentOwner,
  pingIdsBetween,
  reactionsAround,
  receivedPingIds,
  replaceReaction,
  updateMoment,
} from '../db/pings';
import type { PingRow } from '../db/schema';
import { conflict, notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { mutate } from '../middleware/idempotency';
import { input, validate } from '../middleware/validate';
import {
  ID_TAKEN,
  existingOwnPing,
  promptContent,
  sendPings,
  type PingContent,
} from '../services/pings';

/** Lists are bounded; the full history reaches devices through /api/sync/pull. */
export const RECENT_PINGS_LIMIT = 50;
export const PINGS_WITH_LIMIT = 50;
export const REACTIONS_LIMIT = 100;

const PING_NOT_FOUND = 'Ping not found';

async function loadOne(db: Db, viewerId: string, id: string): Promise<Ping> {
  const [p] = await loadPings(db, viewerId, [id]);
  if (!p) throw notFound(PING_NOT_FOUND);
  return p;
}

/** A ping the viewer sent or received; anyone else gets the same 404 as for an unknown id. */
async function involvedPing(db: Db, viewerId: string, id: string): Promise<PingRow> {
  const p = await findPing(db, id);
  if (!p || (p.senderId !== viewerId && p.receiverId !== viewerId)) throw notFound(PING_NOT_FOUND);
  return p;
}

type Params = z.output<typeof PingIdParams>;
const body = <S extends z.ZodType>(ctx: Context) => input<z.output<S>>(ctx).body;
const params = (ctx: Context) => input<unknown, unknown, Params>(ctx).params;

export function pingRoutes({ db }: AppDeps): Router {
  const router = new Router({ prefix: '/api' });
  const auth = requireUser(db);

  // ---------- sending ----------

  router.post('/pings', auth, validate({ body: SendPingBody }), async (ctx) => {
    const b = body<typeof SendPingBody>(ctx);
    const me = currentUser(ctx).id;
    await mutate(ctx, db, async (trx, feed) => {
      if (b.id) {
        const replay = await existingOwnPing(trx, me, b.id);
        if (replay) return { status: 200, body: replay };
      }
      const content = await promptContent(trx, me, b.promptId);
      const [ping] = await sendPings(trx, feed, me, {
        receiverIds: [b.receiverId],
        ids: b.id ? [b.id] : [],
        groupId: null,
        content,
      });
      return { status: 201, body: ping! };
    });
  });

  router.post('/pings/group', auth, validate({ body: GroupPingBody }), async (ctx) => {
    const b = body<typeof GroupPingBody>(ctx);
    const me = currentUser(ctx).id;
    await mutate(ctx, db, async (trx, feed) => {
      const replay = await existingGroup(trx, me, b);
      if (replay) return { status: 200, body: replay };
      const content = await promptContent(trx, me, b.promptId);
      const groupId = b.groupId ?? uuidv7();
      const pings = await sendPings(trx, feed, me, {
        receiverIds: b.receiverIds,
        ids: b.ids ?? [],
        groupId,
        content,
      });
      return { status: 201, body: { groupId, pings } satisfies GroupPingResponse };
    });
  });

  /**
   * A group create whose groupId or ping ids already exist: the sender's own group is answered
   * as stored (its pings in the order of this request's receivers); anything else is a 409.
   */
  async function existingGroup(
    trx: Db,
    me: string,
    b: z.output<typeof GroupPingBody>,
  ): Promise<GroupPingResponse | undefined> {
    let groupId = b.groupId;
    if (b.ids?.length) {
      const taken = await findPings(trx, b.ids);
      if (taken.some((p) => p.senderId !== me || !p.groupId || (groupId && p.groupId !== groupId)))
        throw conflict(ID_TAKEN);
      groupId ??= taken[0]?.groupId ?? undefined;
    }
    if (!groupId) return undefined;
    const rows = await findGroupPings(trx, groupId);
    if (rows.length === 0) return undefined;
    if (rows.some((p) => p.senderId !== me)) throw conflict(ID_TAKEN);
    const order = new Map(b.receiverIds.map((id, i) => [id, i]));
    const rank = (p: PingRow) => order.get(p.receiverId) ?? Number.MAX_SAFE_INTEGER;
    const ids = [...rows].sort((x, y) => rank(x) - rank(y)).map((p) => p.id);
    return { groupId, pings: await loadPings(trx, me, ids) };
  }

  router.post('/pings/custom', auth, validate({ body: CustomPingBody }), async (ctx) => {
    const b = body<typeof CustomPingBody>(ctx);
    const me = currentUser(ctx).id;
    await mutate(ctx, db, async (trx, feed) => {
      if (b.id) {
        const replay = await existingOwnPing(trx, me, b.id);
        if (replay) return { status: 200, body: replay };
      }
      const anchored =
        b.anchorId !== undefined &&
        (await isAcceptedAnchorBetween(trx, b.anchorId, me, b.receiverId));
      const content: PingContent = {
        kind: anchored ? 'anchor' : b.surprise ? 'surprise' : 'custom',
        promptId: null,
        promptText: null,
        promptEmoji: null,
        customText: b.customText,
        customEmoji: b.customEmoji ?? (b.surprise ? DEFAULT_SURPRISE_EMOJI : DEFAULT_PROMPT_EMOJI),
        anchorId: anchored ? b.anchorId! : null,
      };
      const [ping] = await sendPings(trx, feed, me, {
        receiverIds: [b.receiverId],
        ids: b.id ? [b.id] : [],
        groupId: null,
        content,
      });
      return { status: 201, body: ping! };
    });
  });

  // ---------- reading ----------

  router.get('/pings/recent', auth, async (ctx) => {
    const me = currentUser(ctx).id;
    ctx.body = await loadPings(db, me, await receivedPingIds(db, me, RECENT_PINGS_LIMIT));
  });

  router.get('/pings/unread-count', auth, async (ctx) => {
    ctx.body = { count: await countUnread(db, currentUser(ctx).id) } satisfies CountResponse;
  });

  router.get('/pings/total-count', auth, async (ctx) => {
    ctx.body = {
      count: await countSentAndReceived(db, currentUser(ctx).id),
    } satisfies CountResponse;
  });

  router.get('/pings/reactions', auth, async (ctx) => {
    ctx.body = await reactionsAround(db, currentUser(ctx).id, REACTIONS_LIMIT);
  });

  router.get('/pings/with/:friendId', auth, validate({ params: PingsWithParams }), async (ctx) => {
    const { friendId } = input<unknown, unknown, z.output<typeof PingsWithParams>>(ctx).params;
    const me = currentUser(ctx).id;
    if (friendId === me || !(await areFriends(db, me, friendId))) {
      throw notFound('Friend not found');
    }
    ctx.body = await loadPings(db, me, await pingIdsBetween(db, me, friendId, PINGS_WITH_LIMIT));
  });

  router.patch('/pings/mark-all-read', auth, async (ctx) => {
    const me = currentUser(ctx).id;
    await mutate(ctx, db, async (trx, feed) => {
      const changed = await markAllRead(trx, me);
      // After a block the read mark stays with the reader: the sender is not told (loadPings).
      const blocked = await blocksWith(
        trx,
        me,
        changed.map((p) => p.senderId),
      );
      for (const p of changed) {
        await feed.record(blocked.has(p.senderId) ? [me] : [me, p.senderId], 'ping', p.id);
      }
      return { body: { count: changed.length } satisfies CountResponse };
    });
  });

  router.patch('/pings/:id/read', auth, validate({ params: PingIdParams }), async (ctx) => {
    const { id } = params(ctx);
    const me = currentUser(ctx).id;
    await mutate(ctx, db, async (trx, feed) => {
      const p = await findPing(trx, id);
      // Only the receiver reads a ping; to anyone else it does not exist here.
      if (!p || p.receiverId !== me) throw notFound(PING_NOT_FOUND);
      if (await markRead(trx, id, me)) {
        // After a block the read mark stays with the reader: the sender is not told (loadPings).
        const told = (await isBlockedEitherWay(trx, me, p.senderId)) ? [me] : [p.senderId, me];
        await feed.record(told, 'ping', id);
      }
      return { body: await loadOne(trx, me, id) };
    });
  });

  // ---------- reactions and bookmarks ----------

  router.post(
    '/pings/:id/reactions',
    auth,
    validate({ params: PingIdParams, body: ReactionBody }),
    async (ctx) => {
      const { id } = params(ctx);
      const b = body<typeof ReactionBody>(ctx);
      const me = currentUser(ctx).id;
      await mutate(ctx, db, async (trx, feed) => {
        const p = await involvedPing(trx, me, id);
        // Old pings stay with both after a block, but nothing new reaches the other person.
        const other = p.senderId === me ? p.receiverId : p.senderId;
        if (await isBlockedEitherWay(trx, me, other)) throw notFound(PING_NOT_FOUND);
        if (b.id) {
          const existing = await findReactionById(trx, b.id);
          if (existing) {
            if (existing.userId !== me || existing.pingId !== id) throw conflict(ID_TAKEN);
            return { status: 200, body: await loadOne(trx, me, id) };
          }
        }
        await replaceReaction(trx, {
          id: b.id ?? uuidv7(),
          pingId: id,
          userId: me,
          reactionType: b.reactionType,
        });
        await feed.record([p.senderId, p.receiverId], 'ping', id);
        return { status: 201, body: await loadOne(trx, me, id) };
      });
    },
  );

  router.patch(
    '/pings/:id/bookmark',
    auth,
    validate({ params: PingIdParams, body: BookmarkBody }),
    async (ctx) => {
      const { id } = params(ctx);
      const b = body<typeof BookmarkBody>(ctx);
      const me = currentUser(ctx).id;
      await mutate(ctx, db, async (trx, feed) => {
        const p = await involvedPing(trx, me, id);
        const existing = await findMoment(trx, me, id);
        if (b.bookmarked && existing) {
          const patch = {
            ...(b.title ? { title: b.title } : {}),
            ...(b.description !== undefined ? { description: b.description || null } : {}),
          };
          if (Object.keys(patch).length) {
            await updateMoment(trx, existing.id, patch);
            await feed.record([me], 'moment', existing.id);
          }
        } else if (b.bookmarked) {
          if (b.momentId && (await momentOwner(trx, b.momentId))) throw conflict(ID_TAKEN);
          const momentId = b.momentId ?? uuidv7();
          await insertMoment(trx, {
            id: momentId,
            userId: me,
            pingId: id,
            title: b.title || defaultMomentTitle(p),
            description: b.description || null,
          });
          await feed.record([me], 'moment', momentId);
          await feed.record([p.senderId, p.receiverId], 'ping', id);
        } else if (existing) {
          await deleteMoment(trx, existing.id);
          await feed.record([me], 'moment', existing.id, 'delete');
          await feed.record([p.senderId, p.receiverId], 'ping', id);
        }
        return { body: await loadOne(trx, me, id) };
      });
    },
  );

  return router;
}

/** A moment is titled by what the ping said, unless the person gives a title. */
function defaultMomentTitle(p: PingRow): string {
  const text = (p.customText ?? p.promptText ?? 'A ping').trim() || 'A ping';
  const chars = [...text];
  return chars.length <= MOMENT_TITLE_MAX
    ? text
    : chars.slice(0, MOMENT_TITLE_MAX - 1).join('') + '…';
}
