/**
 * The person's own prompts (the Library, spec section 2, and 'Your Custom Prompts' on the
 * profile): create, edit, assign (one write per friend), delete, and installing a ping pack, all
 * through the outbox with the prompt's pending row.
 */
import { uuidv7, type Prompt, type UserSummary } from '@pingme/shared';
import { db } from '../db';
import { PENDING_FIELD, localWrite } from '../sync/local-write';
import { summaryOf, type ErrorToast, type Pending } from './pending';

/** THE pending row of a new prompt. */
export function pendingPrompt(o: {
  id: string;
  ownerId: string;
  text: string;
  emoji: string;
  at: string;
}): Pending<Prompt> {
  return {
    id: o.id,
    text: o.text,
    emoji: o.emoji,
    isDefault: false,
    ownerId: o.ownerId,
    createdAt: o.at,
    updatedAt: o.at,
    assignments: [],
    [PENDING_FIELD]: true,
  };
}

/** A prompt with one more friend assigned (as the server answers it). */
export function withAssignment(prompt: Prompt, friend: UserSummary): Prompt {
  if (prompt.assignments.some((a) => a.friendId === friend.id)) return prompt;
  return {
    ...prompt,
    assignments: [...prompt.assignments, { friendId: friend.id, friend: summaryOf(friend) }],
  };
}

export async function createPrompt(
  ownerId: string,
  text: string,
  emoji: string,
  errorToast: ErrorToast,
): Promise<string> {
  const id = uuidv7();
  const row = pendingPrompt({ id, ownerId, text, emoji, at: new Date().toISOString() });
  await localWrite({
    mutation: 'prompt.create',
    args: { id, text, emoji },
    effects: [{ table: 'prompts', key: id, after: row }],
    errorToast,
  });
  return id;
}

/** Edits a prompt's text and emoji (the spec's 'create or edit prompt' dialog). */
export async function updatePrompt(
  prompt: Prompt,
  text: string,
  emoji: string,
  errorToast: ErrorToast,
): Promise<void> {
  const after: Pending<Prompt> = {
    ...prompt,
    text,
    emoji,
    updatedAt: new Date().toISOString(),
    [PENDING_FIELD]: true,
  };
  await localWrite({
    mutation: 'prompt.update',
    args: { id: prompt.id, text, emoji },
    effects: [{ table: 'prompts', key: prompt.id, after }],
    errorToast,
  });
}

/** One write per friend, in order, each adding that friend to the row. */
export async function assignPrompt(
  promptId: string,
  friends: readonly UserSummary[],
  errorToast: ErrorToast,
): Promise<void> {
  for (const friend of friends) {
    const current = await db.prompts.get(promptId);
    if (!current) return;
    await localWrite({
      mutation: 'prompt.assign',
      args: { promptId, friendId: friend.id },
      effects: [
        {
          table: 'prompts',
          key: promptId,
          after: { ...withAssignment(current, friend), [PENDING_FIELD]: true },
        },
      ],
      errorToast,
    });
  }
}

export async function deletePrompt(promptId: string, errorToast: ErrorToast): Promise<void> {
  await localWrite({
    mutation: 'prompt.delete',
    args: { id: promptId },
    effects: [{ table: 'prompts', key: promptId, after: null }],
    errorToast,
  });
}

/** A ping pack's prompts join the library; they arrive with the next pull. */
export async function installPack(packId: string, errorToast: ErrorToast): Promise<void> {
  await localWrite({ mutation: 'pack.install', args: { id: packId }, errorToast });
}
