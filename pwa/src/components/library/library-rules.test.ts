import type { Prompt } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import { assignedLabel, libraryOrder, promptEmoji, validatePromptForm } from './library-rules';
import { withAssignment } from '../../writes/prompts';

const prompt = (over: Partial<Prompt>): Prompt => ({
  id: '00000000-0000-7000-8000-000000000001',
  text: 'Ping me when you need a hug',
  emoji: '🤗',
  isDefault: true,
  ownerId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  assignments: [],
  ...over,
});

describe('Ping Library rules', () => {
  it('needs a prompt message, trims it, and defaults the emoji to 💭', () => {
    expect(validatePromptForm({ text: '   ', emoji: '' })).toEqual({
      ok: false,
      errors: { text: 'Please enter a prompt message.' },
    });
    expect(validatePromptForm({ text: '  Ping me when it snows ', emoji: '' })).toEqual({
      ok: true,
      text: 'Ping me when it snows',
      emoji: '💭',
    });
    expect(validatePromptForm({ text: 'Hi', emoji: '❄️' })).toMatchObject({ emoji: '❄️' });
  });

  it('refuses more than 100 characters and more than 4 emoji', () => {
    const long = validatePromptForm({ text: 'x'.repeat(101), emoji: '' });
    expect(long).toEqual({
      ok: false,
      errors: { text: 'Prompt text must be at most 100 characters' },
    });
    const emoji = validatePromptForm({ text: 'Hi', emoji: '😀😀😀😀😀' });
    expect(emoji).toEqual({ ok: false, errors: { emoji: 'Emoji must be at most 4 characters' } });
  });

  it('guesses an emoji from keywords when a prompt has none', () => {
    expect(promptEmoji({ text: 'Ping me when you miss me', emoji: '' })).toBe('💕');
    expect(promptEmoji({ text: 'Anything', emoji: ' ' })).toBe('💭');
    expect(promptEmoji({ text: 'Ping me when you miss me', emoji: '🌙' })).toBe('🌙');
  });

  it('lists the person’s prompts newest first, then the defaults in order', () => {
    const me = 'me';
    const rows = [
      prompt({ id: '00000000-0000-7000-8000-000000000002' }),
      prompt({ id: '00000000-0000-7000-8000-000000000001' }),
      prompt({ id: 'a', isDefault: false, ownerId: me, createdAt: '2026-02-01T00:00:00.000Z' }),
      prompt({ id: 'b', isDefault: false, ownerId: me, createdAt: '2026-03-01T00:00:00.000Z' }),
      prompt({ id: 'c', isDefault: false, ownerId: 'someone else' }),
    ];
    const { custom, defaults } = libraryOrder(rows, me);
    expect(custom.map((p) => p.id)).toEqual(['b', 'a']);
    expect(defaults.map((p) => p.id)).toEqual([
      '00000000-0000-7000-8000-000000000001',
      '00000000-0000-7000-8000-000000000002',
    ]);
  });

  it('adds an assignment once', () => {
    const friend = { id: 'f1', firstName: 'Bo', lastName: null, profileImageUrl: null };
    const once = withAssignment(prompt({}), friend);
    expect(once.assignments).toEqual([{ friendId: 'f1', friend }]);
    expect(withAssignment(once, friend)).toBe(once);
  });

  it('says how many friends a prompt is assigned to', () => {
    expect(assignedLabel(0)).toBe('Not assigned yet');
    expect(assignedLabel(1)).toBe('Assigned to 1 friend');
    expect(assignedLabel(3)).toBe('Assigned to 3 friends');
  });
});
