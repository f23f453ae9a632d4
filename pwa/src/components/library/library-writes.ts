/**
 * The Library's writes through the outbox: create, assign (one POST per friend), delete. Each
 * shows at once (the row marked pending) and is rolled back with the spec's toast if refused.
 */
import { uuidv7, type Prompt, type UserSummary } from '@pingme/shared';
import { db } from '../../db';
import { PENDING_FIELD, localWrite } from '../../sync/local-write';
import { LIBRARY_MESSAGES, withAssignment } from './library-rules';

export async function createPrompt(meId: string, text: string, emoji: string): Promise<string> {
  const id = uuidv7();
  const now = new Date().toISOString();
  const row: Prompt & { [PENDING_FIELD]: true } = {
    id,
    text,
    emoji,
    isDefault: false,
    ownerId: meId,
    createdAt: now,
    updatedAt: now,
    assignments: [],
    [PENDING_FIELD]: true,
  };
  await localWrite({
    request: { method: 'POST', path: '/api/prompts', body: { id, text, emoji } },
    effects: [{ table: 'prompts', key: id, after: row }],
    errorToast: { description: LIBRARY_MESSAGES.createFailed },
  });
  return id;
}

/** One POST /api/prompts/assign per friend, in order, each adding that friend to the row. */
export async function assignPrompt(promptId: string, friends: readonly UserSummary[]) {
  for (const friend of friends) {
    const current = await db.prompts.get(promptId);
    if (!current) return;
    await localWrite({
      request: {
        method: 'POST',
        path: '/api/prompts/assign',
        body: { promptId, friendId: friend.id },
      },
      effects: [
        {
          table: 'prompts',
          key: promptId,
          after: { ...withAssignment(current, friend), [PENDING_FIELD]: true },
        },
      ],
      errorToast: { description: LIBRARY_MESSAGES.assignFailed },
    });
  }
}

export async function deletePrompt(promptId: string): Promise<void> {
  await localWrite({
    request: { method: 'DELETE', path: `/api/prompts/${promptId}` },
    effects: [{ table: 'prompts', key: promptId, after: null }],
    errorToast: { description: LIBRARY_MESSAGES.deleteFailed },
  });
}
