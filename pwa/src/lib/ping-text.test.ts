import type { Ping } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import { pingEmoji, pingText, sentText } from './ping-text';

const ME = 'me';
const prompt = (receiverId: string) =>
  ({
    receiverId,
    prompt: { id: 'p', text: 'Ping me when you need a hug', emoji: '' },
    customText: null,
    customEmoji: null,
  }) as unknown as Ping;

describe('what a ping says', () => {
  it('reads a prompt in the receiver’s words for the receiver, as sent for the sender', () => {
    expect(pingText(prompt(ME), ME)).toBe('Ping you when I need a hug');
    expect(pingText(prompt('bo'), ME)).toBe('Ping me when you need a hug');
    expect(sentText(prompt(ME))).toBe('Ping me when you need a hug');
  });

  it('shows a custom text as written, whoever reads it', () => {
    const custom = {
      receiverId: ME,
      prompt: null,
      customText: 'Ping me when you land',
      customEmoji: '✈️',
    } as unknown as Ping;
    expect(pingText(custom, ME)).toBe('Ping me when you land');
    expect(pingEmoji(custom)).toBe('✈️');
  });

  it('falls back to 💭 when the prompt has no emoji', () => {
    expect(pingEmoji(prompt(ME))).toBe('💭');
  });
});
