/**
 * Prompts and their assignments. A person sees the default prompts and their own custom prompts,
 * each with the assignments that person made (a default prompt's assignments are per person).
 */
import type { Prompt } from '@pingme/shared';
import { loadInOrder } from './chunks';
import { compiledOnce } from './compiled';
import type { Db } from './connection';
import { nowIso } from './connection';
import type { PromptRow } from './schema';

/**
 * The prompts among `ids` that viewerId may see (defaults and their own custom prompts), each with
 * the viewer's assignments. Order of `ids` kept; unknown or invisible ones omitted. Two queries
 * per chunk of ids, whatever their number.
 */
export async function loadPrompts(db: Db, viewerId: string, ids: string[]): Promise<Prompt[]> {
  return loadInOrder(ids, async (part) => {
    const rows = await db
      .selectFrom('prompts')
      .selectAll()
      .where('id', 'in', part)
      .where((eb) => eb.or([eb('isDefault', '=', 1), eb('ownerId', '=', viewerId)]))
      .execute();
    if (rows.length === 0) return [];
    const assignments = await db
      .selectFrom('promptAssignments as a')
      .innerJoin('users as u', 'u.id', 'a.friendId')
      .select(['a.promptId', 'u.id', 'u.firstName', 'u.lastName', 'u.profileImageUrl'])
      .where('a.ownerId', '=', viewerId)
      .where(
        'a.promptId',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('a.createdAt')
      .orderBy('a.friendId')
      .execute();
    const found = new Map(rows.map((r) => [r.id, toPrompt(r)]));
    for (const a of assignments) {
      const { promptId, ...friend } = a;
      found.get(promptId)?.assignments.push({ friendId: friend.id, friend });
    }
    return [...found.values()];
  });
}

function toPrompt(r: PromptRow): Prompt {
  return {
    id: r.id,
    text: r.text,
    emoji: r.emoji,
    isDefault: r.isDefault === 1,
    ownerId: r.ownerId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    assignments: [],
  };
}

/** Snapshot paging for /api/sync/pull: visible prompt ids after `afterId`, ascending. */
export async function visiblePromptIds(
  db: Db,
  viewerId: string,
  afterId: string | undefined,
  limit: number,
): Promise<string[]> {
  let q = db
    .selectFrom('prompts')
    .select('id')
    .where((eb) => eb.or([eb('isDefault', '=', 1), eb('ownerId', '=', viewerId)]));
  if (afterId !== undefined) q = q.where('id', '>', afterId);
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

/** The default prompts' ids in their display order. */
export async function defaultPromptIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('prompts')
    .select('id')
    .where('isDefault', '=', 1)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** A person's custom prompts' ids, newest first. */
export async function customPromptIds(db: Db, ownerId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('prompts')
    .select('id')
    .where('ownerId', '=', ownerId)
    .where('isDefault', '=', 0)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => r.id);
}

/** Every send from a prompt reads it: compiled once (db/compiled.ts). */
const findPromptQuery = compiledOnce((db: Db, id: string) =>
  db.selectFrom('prompts').selectAll().where('id', '=', id),
);

/**
 * The default prompts as read, by id: most sends name one, and they change only by a migration
 * (never at run time), so they are read once per `DEFAULT_PROMPTS_TTL_MS` rather than once per
 * send: a statement less per send (a round trip on PostgreSQL). A person's own prompts, which
 * they edit and delete, are always read.
 */
const defaults = new Map<string, { row: PromptRow; readAt: number }>();
/** How long a default prompt is kept (a migration on another node shows within this). */
export const DEFAULT_PROMPTS_TTL_MS = 60_000;

export async function findPrompt(db: Db, id: string): Promise<PromptRow | undefined> {
  const now = Date.now();
  const known = defaults.get(id);
  if (known && now - known.readAt < DEFAULT_PROMPTS_TTL_MS) return known.row;
  const row = (await findPromptQuery(db, id)).rows[0];
  if (row?.isDefault === 1) defaults.set(id, { row: Object.freeze(row), readAt: now });
  else defaults.delete(id);
  return row;
}

/** A prompt viewerId may send or assign: a default one or their own. */
export function isUsableBy(p: PromptRow, viewerId: string): boolean {
  return p.isDefault === 1 || p.ownerId === viewerId;
}

export async function insertPrompt(
  db: Db,
  p: { id: string; ownerId: string; text: string; emoji: string },
): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('prompts')
    .values({ ...p, isDefault: 0, position: 0, createdAt: now, updatedAt: now })
    .execute();
}

export async function updatePrompt(
  db: Db,
  id: string,
  patch: { text: string; emoji: string },
): Promise<void> {
  await db
    .updateTable('prompts')
    .set({ ...patch, updatedAt: nowIso() })
    .where('id', '=', id)
    .execute();
}

/** Deletes a custom prompt; its assignments go with it (foreign key cascade). */
export async function deletePrompt(db: Db, id: string): Promise<void> {
  await db.deleteFrom('promptAssignments').where('promptId', '=', id).execute();
  await db.deleteFrom('prompts').where('id', '=', id).execute();
}

/** Assigns a prompt to a friend for ownerId; true when the assignment is new. */
export async function assignPrompt(
  db: Db,
  a: { promptId: string; friendId: string; ownerId: string },
): Promise<boolean> {
  const r = await db
    .insertInto('promptAssignments')
    .values({ ...a, createdAt: nowIso() })
    .onConflict((oc) => oc.columns(['ownerId', 'promptId', 'friendId']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}
