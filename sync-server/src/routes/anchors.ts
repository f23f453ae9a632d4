/**
 * Anchors (spec sections 2 "Anchor dialog", 4, 5, 6 and 9; docs/api.md "Anchors").
 * At most 5 pending-or-accepted anchors per person; one per pair; asking a friend who already asked
 * you accepts their request instead. Every change records an 'anchor' change-log row for both.
 */
import Router from '@koa/router';
import {
  CreateAnchorBody,
  IdParams,
  LIMITS,
  RespondAnchorBody,
  displayName,
  uuidv7,
  type Anchor,
  type CreateAnchorResponse,
} from '@pingme/shared';
import type { z } from 'zod';
import type { AppDeps } from '../app';
import {
  activeAnchorsBetween,
  answerAnchor,
  countActiveAnchors,
  findAnchorRow,
  insertAnchor,
  listAcceptedAnchors,
  listPendingAnchors,
  loadAnchor,
} from '../db/anchors';
import { nowIso } from '../db/connection';
import { areFriends } from '../db/friendships';
import { findUserById } from '../db/users';
import { conflict, forbidden, notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { isUniqueViolation, mutate, type Trx } from '../middleware/idempotency';
import { input, validate } from '../middleware/validate';

export const ANCHOR_MESSAGES = {
  notFriends: 'You can only create anchors with friends.',
  limit: `You can have at most ${LIMITS.anchors} anchors`,
  friendLimit: (name: string) => `${name} already has ${LIMITS.anchors} anchors`,
  alreadyAsked: (name: string) => `You already asked ${name} for an anchor.`,
  alreadyAnchored: (name: string) => `You already have an anchor with ${name}.`,
  idTaken: 'This anchor id is already in use',
  notFound: 'Anchor request not found',
  onlyReceiver: 'Only the person who was asked can answer this anchor request',
  answered: 'This anchor request was already answered',
} as const;

async function mustLoad(trx: Trx, viewerId: string, id: string): Promise<Anchor> {
  const a = await loadAnchor(trx, viewerId, id);
  if (!a) throw notFound(ANCHOR_MESSAGES.notFound);
  return a;
}

export function anchorRoutes({ db }: AppDeps): Router {
  const router = new Router({ prefix: '/api/profile/anchors' });
  const signedIn = requireUser(db);

  router.get('/', signedIn, async (ctx) => {
    ctx.body = (await listAcceptedAnchors(db, currentUser(ctx).id)) satisfies Anchor[];
  });

  router.get('/requests', signedIn, async (ctx) => {
    ctx.body = (await listPendingAnchors(db, currentUser(ctx).id, 'to')) satisfies Anchor[];
  });

  router.get('/requests/sent', signedIn, async (ctx) => {
    ctx.body = (await listPendingAnchors(db, currentUser(ctx).id, 'from')) satisfies Anchor[];
  });

  router.post('/', signedIn, validate({ body: CreateAnchorBody }), async (ctx) => {
    const me = currentUser(ctx);
    const { body } = input<z.output<typeof CreateAnchorBody>>(ctx);
    await mutate<CreateAnchorResponse>(ctx, db, async (trx, feed) => {
      if (body.id) {
        const existing = await findAnchorRow(trx, body.id);
        if (existing) {
          // A repeated create of the same anchor (ARCHITECTURE.md "Identity of entities").
          if (existing.userId !== me.id) throw conflict(ANCHOR_MESSAGES.idTaken);
          return {
            status: 200,
            body: { ...(await mustLoad(trx, me.id, existing.id)), autoAccepted: false },
          };
        }
      }
      if (body.friendId === me.id || !(await areFriends(trx, me.id, body.friendId)))
        throw forbidden(ANCHOR_MESSAGES.notFriends);
      const friend = await findUserById(trx, body.friendId);
      const name = displayName(friend);

      const between = await activeAnchorsBetween(trx, me.id, body.friendId);
      if (between.some((a) => a.status === 'accepted'))
        throw conflict(ANCHOR_MESSAGES.alreadyAnchored(name));
      if (between.some((a) => a.userId === me.id))
        throw conflict(ANCHOR_MESSAGES.alreadyAsked(name));
      const theirs = between.find((a) => a.userId === body.friendId);
      if (theirs) {
        // They asked first: asking back accepts their request. Both already count it.
        await answerAnchor(trx, theirs.id, 'accepted', nowIso());
        await feed.record([me.id, body.friendId], 'anchor', theirs.id);
        // The caller's device shows its request under the id it proposed, which now never
        // exists: its pull gets a tombstone for it (docs/sync.md, Views; found by the PWA's
        // convergence fault test, where that optimistic row stayed pending for ever).
        if (body.id && body.id !== theirs.id) {
          await feed.record([me.id], 'anchor', body.id, 'delete');
        }
        return {
          status: 200,
          body: { ...(await mustLoad(trx, me.id, theirs.id)), autoAccepted: true },
        };
      }

      const counts = await countActiveAnchors(trx, [me.id, body.friendId]);
      if ((counts.get(me.id) ?? 0) >= LIMITS.anchors) throw conflict(ANCHOR_MESSAGES.limit);
      if ((counts.get(body.friendId) ?? 0) >= LIMITS.anchors)
        throw conflict(ANCHOR_MESSAGES.friendLimit(name));

      const id = body.id ?? uuidv7();
      try {
        await insertAnchor(trx, {
          id,
          userId: me.id,
          friendId: body.friendId,
          label: body.label || null,
          text: body.text,
          emoji: body.emoji,
          color: body.color,
          status: 'pending',
          createdAt: nowIso(),
        });
      } catch (err) {
        // Another node inserted for this pair first (index anchors_active_pair, migration 004).
        if (isUniqueViolation(err)) throw conflict(ANCHOR_MESSAGES.alreadyAsked(name));
        throw err;
      }
      await feed.record([me.id, body.friendId], 'anchor', id);
      const anchor = await mustLoad(trx, me.id, id);
      feed.anchorRequest(body.friendId, anchor);
      return { status: 201, body: { ...anchor, autoAccepted: false } };
    });
  });

  router.patch(
    '/:id/respond',
    signedIn,
    validate({ params: IdParams, body: RespondAnchorBody }),
    async (ctx) => {
      const me = currentUser(ctx);
      const { body, params } = input<z.output<typeof RespondAnchorBody>, unknown, { id: string }>(
        ctx,
      );
      await mutate<Anchor>(ctx, db, async (trx, feed) => {
        const row = await findAnchorRow(trx, params.id);
        if (!row || (row.userId !== me.id && row.friendId !== me.id))
          throw notFound(ANCHOR_MESSAGES.notFound);
        if (row.friendId !== me.id) throw forbidden(ANCHOR_MESSAGES.onlyReceiver);
        if (row.status !== 'pending') throw conflict(ANCHOR_MESSAGES.answered);
        const accept = body.response === 'accept';
        if (accept && !(await areFriends(trx, me.id, row.userId)))
          throw forbidden(ANCHOR_MESSAGES.notFriends);
        if (!(await answerAnchor(trx, row.id, accept ? 'accepted' : 'declined', nowIso())))
          throw conflict(ANCHOR_MESSAGES.answered);
        await feed.record([row.userId, row.friendId], 'anchor', row.id);
        return { body: await mustLoad(trx, me.id, row.id) };
      });
    },
  );

  return router;
}
