/**
 * The Ping Library's writes: creating, editing and deleting a person's own prompts, and assigning
 * a prompt to a friend. Answers are loadPrompts' shape, as /api/sync/pull delivers them.
 */
import { uuidv7, type Ok, type Prompt } from '@pingme/shared';
import type { Db } from '../db/connection';
import { areFriends } from '../db/friendships';
import {
  assignPrompt,
  deletePrompt,
  findPrompt,
  insertPrompt,
  isUsableBy,
  loadPrompts,
  updatePrompt,
} from '../db/prompts';
import { conflict, forbidden, notFound } from '../errors';
import { ID_TAKEN } from '../services/pings';
import type { HandlerTable } from './context';

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

export const promptMutations: HandlerTable<
  'prompt.create' | 'prompt.update' | 'prompt.delete' | 'prompt.assign'
> = {
  async 'prompt.create'({ trx, changes, me }, args) {
    if (args.id) {
      const existing = await findPrompt(trx, args.id);
      if (existing) {
        if (existing.isDefault === 1 || existing.ownerId !== me.id) throw conflict(ID_TAKEN);
        return { status: 200, body: await loadOne(trx, me.id, existing.id) };
      }
    }
    const id = args.id ?? uuidv7();
    await insertPrompt(trx, { id, ownerId: me.id, text: args.text, emoji: args.emoji });
    await changes.record([me.id], 'prompt', id);
    return { status: 201, body: await loadOne(trx, me.id, id) };
  },

  async 'prompt.update'({ trx, changes, me }, args) {
    await ownCustomPrompt(trx, me.id, args.id, 'edited');
    await updatePrompt(trx, args.id, { text: args.text, emoji: args.emoji });
    await changes.record([me.id], 'prompt', args.id);
    return { body: await loadOne(trx, me.id, args.id) };
  },

  async 'prompt.delete'({ trx, changes, me }, { id }) {
    await ownCustomPrompt(trx, me.id, id, 'deleted');
    await deletePrompt(trx, id);
    await changes.record([me.id], 'prompt', id, 'delete');
    return { body: { success: true, message: 'Prompt deleted successfully!' } satisfies Ok };
  },

  async 'prompt.assign'({ trx, changes, me }, args) {
    const p = await findPrompt(trx, args.promptId);
    if (!p || !isUsableBy(p, me.id)) throw notFound('Prompt not found');
    if (!(await areFriends(trx, me.id, args.friendId))) {
      throw forbidden('You can only assign prompts to friends');
    }
    const added = await assignPrompt(trx, { ...args, ownerId: me.id });
    if (added) await changes.record([me.id], 'prompt', p.id);
    return { body: await loadOne(trx, me.id, p.id) };
  },
};
