/**
 * What a 2xx answer of the batch holds for Dexie (docs/sync.md, O3): each mutation's answer is
 * parsed with its result schema (shared/src/mutations.ts); a mutation whose answer is an entity
 * (`entity` in the registry, and the pings of a group send) answers that record exactly as the
 * pull delivers it to the caller, so the device can show it at once. Everything else, and an
 * answer that does not parse, is left to the pull. DOM-free (the service worker drains too).
 */
import { MUTATIONS, type MutationEntity } from '@pingme/shared';
import type { EffectTable, OutboxRow } from '../db';
import type { AnsweredRow } from './effects';

const ENTITY_TABLE: Record<MutationEntity, EffectTable> = {
  ping: 'pings',
  prompt: 'prompts',
  mood: 'moods',
  anchor: 'anchors',
};

/**
 * The rows in an acknowledged entry's answer: none when it holds no entity (or the entry is a REST
 * call an older app queued), 'invalid' when the answer does not match its mutation's schema.
 */
export function answeredRows(entry: OutboxRow, body: unknown): AnsweredRow[] | 'invalid' {
  if (!('name' in entry)) return [];
  const spec = MUTATIONS[entry.name];
  const parsed = spec.result.safeParse(body);
  if (!parsed.success) return 'invalid';
  if (entry.name === 'ping.sendGroup') {
    const { pings } = parsed.data as { pings: { id: string }[] };
    return pings.map((p) => ({ table: 'pings', key: p.id, row: p }));
  }
  if (!spec.entity) return [];
  const row = { ...(parsed.data as { id: string } & Record<string, unknown>) };
  // Whether a friend's earlier request was accepted instead is the answer's, not the record's.
  // Such an anchor answers under the friend's id; the pull tombstones the one the device proposed.
  if (entry.name === 'anchor.create') delete row.autoAccepted;
  return [{ table: ENTITY_TABLE[spec.entity], key: row.id, row }];
}
