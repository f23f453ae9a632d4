/**
 * Sending from Home and the Library through the outbox (ARCHITECTURE.md): the ping shows at once
 * (pending) and the server's copy replaces it; a refusal rolls it back with the spec's toast.
 */
import { anchorCustomRewrite, uuidv7, type Anchor, type UserSummary } from '@pingme/shared';
import { localWrite } from '../../sync/local-write';
import { CUSTOM_PING_ERROR } from '../../sync/pings';
import { anchorPingRow, promptPingRow } from './optimistic-ping';

export interface ErrorToast {
  title?: string;
  description: string;
}

/** One prompt to one friend (POST /api/pings); resolves with the new ping's id once durable. */
export async function sendPromptPing(
  me: UserSummary,
  friend: UserSummary,
  prompt: { id: string; text: string; emoji: string },
  errorToast: ErrorToast,
): Promise<string> {
  const id = uuidv7();
  const row = promptPingRow({ id, me, friend, at: new Date().toISOString() }, prompt);
  await localWrite({
    request: {
      method: 'POST',
      path: '/api/pings',
      body: { id, promptId: prompt.id, receiverId: friend.id },
    },
    effects: [{ table: 'pings', key: id, after: row }],
    errorToast,
  });
  return id;
}

/**
 * An anchor's ping to the other person of the anchor (spec section 5, "Custom ping sent from an
 * anchor"): a custom ping whose text is rewritten by anchorCustomRewrite, with the anchor's emoji
 * and id.
 */
export async function sendAnchorPing(
  me: UserSummary,
  partner: UserSummary,
  anchor: Pick<Anchor, 'id' | 'text' | 'emoji'>,
): Promise<string> {
  const id = uuidv7();
  const customText = anchorCustomRewrite(anchor.text);
  const row = anchorPingRow(
    { id, me, friend: partner, at: new Date().toISOString() },
    { id: anchor.id, text: customText, emoji: anchor.emoji },
  );
  await localWrite({
    request: {
      method: 'POST',
      path: '/api/pings/custom',
      body: {
        id,
        receiverId: partner.id,
        customText,
        ...(anchor.emoji ? { customEmoji: anchor.emoji } : {}),
        anchorId: anchor.id,
      },
    },
    effects: [{ table: 'pings', key: id, after: row }],
    errorToast: CUSTOM_PING_ERROR,
  });
  return id;
}
