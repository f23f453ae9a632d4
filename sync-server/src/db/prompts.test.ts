/**
 * findPrompt keeps the default prompts it read for DEFAULT_PROMPTS_TTL_MS (they change only by a
 * migration), and reads a person's own prompts every time (they edit them).
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type OpenedDb } from './connection';
import { DEFAULT_PROMPTS_TTL_MS, findPrompt, insertPrompt, updatePrompt } from './prompts';
import { personRow } from '../../test/rows';
import { recordStatements } from '../../test/statements';

const HUG = '00000000-0000-7000-8000-000000000001';

let opened: OpenedDb;
beforeAll(async () => {
  opened = await openDatabase(':memory:');
  await opened.db
    .insertInto('users')
    .values(personRow('owner', new Date().toISOString()))
    .execute();
});
afterAll(() => opened.close());
afterEach(() => vi.useRealTimers());

/** Records every run of a statement that reads the prompts table, until restored. */
function countReads() {
  const recorded = recordStatements(opened.sqlite);
  return {
    reads: () => recorded.sources.filter((source) => /from "prompts"/.test(source)),
    mockRestore: recorded.restore,
  };
}

describe('findPrompt', () => {
  it('reads a default prompt once per TTL, and sees a migration after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const first = await findPrompt(opened.db, HUG);
    expect(first).toMatchObject({ id: HUG, isDefault: 1, text: 'Ping me when you need a hug' });
    // What a migration on another node might do to a default prompt's text.
    await sql`update prompts set text = 'Ping me when you want a hug' where id = ${HUG}`.execute(
      opened.db,
    );
    expect((await findPrompt(opened.db, HUG))?.text).toBe('Ping me when you need a hug');
    vi.setSystemTime(Date.now() + DEFAULT_PROMPTS_TTL_MS);
    expect((await findPrompt(opened.db, HUG))?.text).toBe('Ping me when you want a hug');
  });

  it('reads a person’s own prompt every time: an edit shows at once', async () => {
    const id = '00000000-0000-7000-8000-0000000000aa';
    await insertPrompt(opened.db, { id, ownerId: 'owner', text: 'Ping me at lunch', emoji: '🥪' });
    const spy = countReads();
    try {
      expect((await findPrompt(opened.db, id))?.text).toBe('Ping me at lunch');
      await updatePrompt(opened.db, id, { text: 'Ping me at dinner', emoji: '🍝' });
      expect((await findPrompt(opened.db, id))?.text).toBe('Ping me at dinner');
      // Both reads ran a statement; a default prompt now read again runs none.
      expect(spy.reads()).toHaveLength(2);
      await findPrompt(opened.db, HUG);
      expect(spy.reads()).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
  });
});
