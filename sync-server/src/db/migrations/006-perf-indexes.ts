import type { Kysely } from 'kysely';
import { createChangesFriendshipIndex } from './changes-friendship-index';
import { createIndex } from './schema';

/**
 * Indexes for the hot reads that had none (docs/performance.md):
 *
 * - pings_sender_id, pings_receiver_id: a snapshot lists a person's pings by id, page after page
 *   (`visiblePingIds`). With (person, id) each side of the list is read in id order and stops at
 *   the page size; before, every page sorted the person's whole history.
 * - pings_receiver_read: unread counts and "mark all read" look for a receiver's unread pings;
 *   the older (receiver_id, created_at) index made them read every ping the person received.
 * - changes_friendship: the people a deleted friendship was recorded for (`otherRecipients`,
 *   when a pull meets a friendship that no longer exists) were found by scanning the whole change
 *   log. Partial (friendship rows only), so the log's hot inserts (pings) do not pay for it.
 *
 * Each index is one more page written per ping send; docs/performance.md weighs that.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createIndex(db, 'pings_sender_id', 'pings', ['sender_id', 'id']);
  await createIndex(db, 'pings_receiver_id', 'pings', ['receiver_id', 'id']);
  await createIndex(db, 'pings_receiver_read', 'pings', ['receiver_id', 'is_read']);
  await createChangesFriendshipIndex(db);
}
