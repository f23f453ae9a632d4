/** Pure rules of the Ping Library (spec sections 2, 5 and 8). */
import { DEFAULT_PROMPT_EMOJI, Emoji, LIMITS, emojiFor, type Prompt } from '@pingme/shared';

export const LIBRARY_MESSAGES = {
  missingText: 'Please enter a prompt message.',
  missingTextToast: 'Invalid Prompt',
  assignNone: 'Please select at least one friend to assign this prompt to.',
  sendNone: 'Please select a friend to send the ping to.',
  createFailed: 'Failed to create prompt. Please try again.',
  updateFailed: 'Failed to update prompt. Please try again.',
  assignFailed: 'Failed to assign prompt. Please try again.',
  sendFailed: 'Failed to send ping. Please try again.',
  deleteFailed: 'Failed to delete prompt. Please try again.',
  deleted: 'Prompt deleted successfully!',
} as const;

export interface PromptForm {
  text: string;
  emoji: string;
}

export type PromptFormResult =
  | { ok: true; text: string; emoji: string }
  | { ok: false; errors: Partial<Record<keyof PromptForm, string>> };

/** Text required (trimmed) and at most 100; emoji optional, at most 4, 💭 when empty. */
export function validatePromptForm(form: PromptForm): PromptFormResult {
  const errors: Partial<Record<keyof PromptForm, string>> = {};
  const text = form.text.trim();
  if (!text) errors.text = LIBRARY_MESSAGES.missingText;
  else if (text.length > LIMITS.promptText)
    errors.text = `Prompt text must be at most ${LIMITS.promptText} characters`;
  const emoji = Emoji().safeParse(form.emoji);
  if (!emoji.success) errors.emoji = emoji.error.issues[0]?.message ?? 'Invalid emoji';
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, text, emoji: (emoji.success && emoji.data) || DEFAULT_PROMPT_EMOJI };
}

/** The emoji a row shows: its own, else one guessed from keywords in the text. */
export function promptEmoji(prompt: Pick<Prompt, 'emoji' | 'text'>): string {
  return prompt.emoji?.trim() || emojiFor(prompt.text);
}

/** The person's prompts (newest first) followed by the defaults (in their display order). */
export function libraryOrder(prompts: readonly Prompt[], meId: string) {
  const custom = prompts
    .filter((p) => !p.isDefault && p.ownerId === meId)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  const defaults = prompts.filter((p) => p.isDefault).sort((a, b) => a.id.localeCompare(b.id));
  return { custom, defaults };
}

/** 'Assigned to 1 friend' / 'Assigned to N friends' / 'Not assigned yet'. */
export function assignedLabel(n: number): string {
  if (n === 0) return 'Not assigned yet';
  return `Assigned to ${n} ${n === 1 ? 'friend' : 'friends'}`;
}
