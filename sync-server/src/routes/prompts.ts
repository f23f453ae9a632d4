/**
 * The Ping Library: default prompts, a person's custom prompts, and assigning prompts to friends.
 * Answers use loadPrompts, the same shape /api/sync/pull delivers.
 */
import Router from '@koa/router';
import {
  AssignPromptBody,
  CreatePromptBody,
  IdParams,
  UpdatePromptBody,
  uuidv7,
  type Ok,
  type Prompt,
} from '@pingme/shared';
import type { z } from 'zod';
import type { AppDeps } from '../app';
import type { Db } from '../db/connection';
import { areFriends } from '../db/friendships';
import {
  assignPrompt,
  customPromptIds,
  defaultPromptIds,
  deletePrompt,
  findPrompt,
  insertPrompt,
  isUsableBy,
  loadPrompts,
  updatePrompt,
} from '../db/prompts';
import { conflict, forbidden, notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { mutate } from '../middleware/idempotency';
import { input, validate } from '../middleware/validate';
import { ID_TAKEN } from '../services/pings';

async function loadOne(db: Db, viewerId: string, id: string): Promise<Prompt> {
  const [p] = await loadPrompts(db, viewerId, [id]);
  if (!p) throw notFound('Prompt not found');
  return p;
}

/** The caller's own custom prompt, or the right error for a default, foreign or unknown one. */
async function ownCustomPrompt(db: Db, ownerId: string, id: string, action: string) {
  const p = await findPrompt(db, id);
  if (p?.isDefault === 1) throw forbidden(`Default prompts cannot be ${action}`);
  if (!p || p.ownerId !== ownerId) throw notFound('Prompt not found');
  return p;
}

export function promptRoutes({ db }: AppDeps): Router {
  const router = new Router({ prefix: '/api' });
  const auth = requireUser(db);

  router.get('/prompts/default', auth, async (ctx) => {
    const me = currentUser(ctx).id;
    ctx.body = await loadPrompts(db, me, await defaultPromptIds(db));
  });

  router.get('/prompts/user', auth, async (ctx) => {
    const me = currentUser(ctx).id;
    ctx.body = await loadPrompts(db, me, await customPromptIds(db, me));
  });

  router.post('/prompts', auth, validate({ body: CreatePromptBody }), async (ctx) => {
    const { body } = input<z.output<typeof CreatePromptBody>>(ctx);
    const me = currentUser(ctx).id;
    await mutate(ctx, db, async (trx, feed) => {
      if (body.id) {
        const existing = await findPrompt(trx, body.id);
        if (existing) {
          if (existing.isDefault === 1 || existing.ownerId !== me) throw conflict(ID_TAKEN);
          return { status: 200, body: await loadOne(trx, me, existing.id) };
        }
      }
      const id = body.id ?? uuidv7();
      await insertPrompt(trx, { id, ownerId: me, text: body.text, emoji: body.emoji });
      await feed.record([me], 'prompt', id);
      return { status: 201, body: await loadOne(trx, me, id) };
    });
  });

  router.put(
    '/prompts/:id',
    auth,
    validate({ params: IdParams, body: UpdatePromptBody }),
    async (ctx) => {
      const { body, params } = input<
        z.output<typeof UpdatePromptBody>,
        unknown,
        z.output<typeof IdParams>
      >(ctx);
      const me = currentUser(ctx).id;
      await mutate(ctx, db, async (trx, feed) => {
        await ownCustomPrompt(trx, me, params.id, 'edited');
        await updatePrompt(trx, params.id, { text: body.text, emoji: body.emoji });
        await feed.record([me], 'prompt', params.id);
        return { body: await loadOne(trx, me, params.id) };
      });
    },
  );

  router.delete('/prompts/:id', auth, validate({ params: IdParams }), async (ctx) => {
    const { params } = input<unknown, unknown, z.output<typeof IdParams>>(ctx);
    const me = currentUser(ctx).id;
    await mutate(ctx, db, async (trx, feed) => {
      await ownCustomPrompt(trx, me, params.id, 'deleted');
      await deletePrompt(trx, params.id);
      await feed.record([me], 'prompt', params.id, 'delete');
      return { body: { success: true, message: 'Prompt deleted successfully!' } satisfies Ok };
    });
  });

  router.post('/prompts/assign', auth, validate({ body: AssignPromptBody }), async (ctx) => {
    const { body } = input<z.output<typeof AssignPromptBody>>(ctx);
    const me = currentUser(ctx).id;
    await mutate(ctx, db, async (trx, feed) => {
      const p = await findPrompt(trx, body.promptId);
      if (!p || !isUsableBy(p, me)) throw notFound('Prompt not found');
      if (!(await areFriends(trx, me, body.friendId))) {
        throw forbidden('You can only assign prompts to friends');
      }
      const added = await assignPrompt(trx, { ...body, ownerId: me });
      if (added) await feed.record([me], 'prompt', p.id);
      return { body: await loadOne(trx, me, p.id) };
    });
  });

  return router;
}
