/**
 * Sharing a mood with one friend (spec sections 2 "Friends", 3 and 5; docs/api.md "Moods"): only
 * the two of them see it, and each share records a 'mood' change-log row for both.
 */
import { uuidv7 } from '@pingme/shared';
import { nowIso } from '../db/connection';
import { areFriends } from '../db/friendships';
import { findMoodRow, insertMood, loadMoods } from '../db/moods';
import { conflict, forbidden } from '../errors';
import type { HandlerTable } from './context';

export const MOOD_MESSAGES = {
  notFriends: 'You can only share a mood with a friend.',
  friendNotFound: 'Friend not found',
  idTaken: 'This mood id is already in use',
} as const;

export const moodMutations: HandlerTable<'mood.share'> = {
  async 'mood.share'({ trx, changes, me }, args) {
    if (args.id) {
      const existing = await findMoodRow(trx, args.id);
      if (existing) {
        if (existing.userId !== me.id) throw conflict(MOOD_MESSAGES.idTaken);
        const [mood] = await loadMoods(trx, me.id, [existing.id]);
        return { status: 200, body: mood! };
      }
    }
    if (args.friendId === me.id || !(await areFriends(trx, me.id, args.friendId)))
      throw forbidden(MOOD_MESSAGES.notFriends);
    const row = {
      id: args.id ?? uuidv7(),
      userId: me.id,
      friendId: args.friendId,
      mood: args.mood,
      emoji: args.emoji,
      note: args.note,
      createdAt: nowIso(),
    };
    await insertMood(trx, row);
    await changes.record([me.id, args.friendId], 'mood', row.id);
    const [mood] = await loadMoods(trx, me.id, [row.id]);
    return { status: 201, body: mood! };
  },
};
