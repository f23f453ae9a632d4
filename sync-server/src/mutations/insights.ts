/**
 * Writes of the profile's Packs tab and of Analytics: installing a ping pack (its prompts become
 * the person's own), and recomputing friendship energy (docs/energy.md).
 */
import { LIMITS, uuidv7 } from '@pingme/shared';
import { nowIso } from '../db/connection';
import {
  insertPrompts,
  listPacks,
  nextPromptPosition,
  promptTextsOf,
  recordPackInstall,
} from '../db/insights';
import { notFound } from '../errors';
import { toCollection } from '../routes/insights';
import { refreshEnergy } from '../services/energy';
import type { HandlerTable } from './context';

export const insightMutations: HandlerTable<'pack.install' | 'energy.refresh'> = {
  async 'pack.install'({ trx, changes, me }, { id }) {
    const [pack] = await listPacks(trx, me.id, id);
    if (!pack) throw notFound('Ping pack not found');
    const at = nowIso();
    if (await recordPackInstall(trx, pack.id, me.id, at)) {
      // The pack's prompts become the person's own custom prompts, skipping any text they
      // already have (a default prompt or one of their own).
      const have = await promptTextsOf(trx, me.id);
      let position = await nextPromptPosition(trx, me.id);
      const rows = [];
      for (const p of toCollection(pack, me.id).prompts) {
        const key = p.text.trim().toLowerCase();
        if (!key || have.has(key)) continue;
        have.add(key);
        rows.push({
          id: uuidv7(),
          ownerId: me.id,
          text: p.text.trim().slice(0, LIMITS.promptText),
          emoji: p.emoji,
          isDefault: 0,
          position: position++,
          createdAt: at,
          updatedAt: at,
        });
      }
      await insertPrompts(trx, rows);
      for (const r of rows) await changes.record([me.id], 'prompt', r.id);
    }
    const [fresh] = await listPacks(trx, me.id, id);
    return { body: toCollection(fresh!, me.id) };
  },

  async 'energy.refresh'({ trx, me }) {
    return { body: await refreshEnergy(trx, me.id) };
  },
};
