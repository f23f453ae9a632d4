/**
 * What a ping says, wherever it is shown (cards, the new-ping banner and toast, Activity and
 * Notifications): one reading for every screen.
 */
import { DEFAULT_PROMPT_EMOJI, receiverView, type Ping } from '@pingme/shared';

/** The words as sent: its prompt's text, else its custom text. */
export function sentText(ping: Pick<Ping, 'prompt' | 'customText'>): string {
  return ping.prompt?.text ?? ping.customText ?? '';
}

/**
 * What the reader sees: the receiver sees a prompt in their own words ('Ping me when you need a
 * hug' reads 'Ping you when I need a hug', shared `receiverView`); the sender, and every custom
 * text, as sent.
 */
export function pingText(
  ping: Pick<Ping, 'prompt' | 'customText' | 'receiverId'>,
  viewerId: string | undefined,
): string {
  const text = sentText(ping);
  return ping.prompt && ping.receiverId === viewerId ? receiverView(text) : text;
}

/** Its prompt's emoji, else its custom emoji, else the default (💭). */
export function pingEmoji(ping: Pick<Ping, 'prompt' | 'customEmoji'>): string {
  return ping.prompt?.emoji || ping.customEmoji || DEFAULT_PROMPT_EMOJI;
}
