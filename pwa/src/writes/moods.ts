/** Sharing a mood with a friend (the mood dialog, spec section 2), through the outbox. */
import { uuidv7, type Mood, type MoodName } from '@pingme/shared';
import { PENDING_FIELD, localWrite } from '../sync/local-write';
import type { Pending } from './pending';

export const MOOD_ERROR = 'Failed to set mood. Please try again.';

/** THE pending row of a shared mood. */
export function pendingMood(o: {
  id: string;
  meId: string;
  friendId: string;
  mood: MoodName;
  emoji: string;
  note: string | null;
  at: string;
}): Pending<Mood> {
  return {
    id: o.id,
    userId: o.meId,
    friendId: o.friendId,
    mood: o.mood,
    emoji: o.emoji,
    note: o.note,
    createdAt: o.at,
    [PENDING_FIELD]: true,
  };
}

export async function shareMood(o: {
  meId: string;
  friendId: string;
  mood: MoodName;
  emoji: string;
  note: string | null;
}): Promise<void> {
  const id = uuidv7();
  await localWrite({
    mutation: 'mood.share',
    args: { id, friendId: o.friendId, mood: o.mood, emoji: o.emoji, note: o.note },
    effects: [
      {
        table: 'moods',
        key: id,
        after: pendingMood({ ...o, id, at: new Date().toISOString() }),
      },
    ],
    errorToast: { description: MOOD_ERROR },
  });
}
