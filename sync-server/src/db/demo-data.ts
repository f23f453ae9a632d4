/**
 * Writes used only by `npm run demo`: a short ping history inserted directly, because the ping
 * routes are not the demo's concern. Each write records its change-log rows like a route would.
 */
import { uuidv7, type ReactionType } from '@pingme/shared';
import { recordChange } from './changes';
import type { Db } from './connection';
import { countRows } from './count';
import { pingsBetween } from './pings';

export interface DemoPing {
  senderId: string;
  receiverId: string;
  /** The prompt it was sent from, when it is one the database holds. */
  promptId?: string | null;
  promptText: string;
  promptEmoji: string;
  createdAt: Date;
  read: boolean;
}

export async function countPingsBetween(db: Db, a: string, b: string): Promise<number> {
  return countRows(pingsBetween(db, a, b));
}

/** A prompt ping as it read when sent; records a 'ping' change for both people. */
export async function insertDemoPing(db: Db, p: DemoPing): Promise<string> {
  const id = uuidv7(p.createdAt.getTime());
  const createdAt = p.createdAt.toISOString();
  await db
    .insertInto('pings')
    .values({
      id,
      senderId: p.senderId,
      receiverId: p.receiverId,
      kind: 'prompt',
      promptId: p.promptId ?? null,
      promptText: p.promptText,
      promptEmoji: p.promptEmoji,
      customText: null,
      customEmoji: null,
      anchorId: null,
      groupId: null,
      isRead: p.read ? 1 : 0,
      readAt: p.read ? new Date(p.createdAt.getTime() + 15 * 60_000).toISOString() : null,
      createdAt,
    })
    .execute();
  await recordChange(db, [p.senderId, p.receiverId], 'ping', id);
  return id;
}

/** A reaction on a ping. Reactions travel with their ping, so the change is the ping's. */
export async function insertDemoReaction(
  db: Db,
  r: { pingId: string; userId: string; reactionType: ReactionType; createdAt: Date },
): Promise<void> {
  const ping = await db
    .selectFrom('pings')
    .select(['senderId', 'receiverId'])
    .where('id', '=', r.pingId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('reactions')
    .values({
      id: uuidv7(r.createdAt.getTime()),
      pingId: r.pingId,
      userId: r.userId,
      reactionType: r.reactionType,
      createdAt: r.createdAt.toISOString(),
    })
    .execute();
  await recordChange(db, [ping.senderId, ping.receiverId], 'ping', r.pingId);
}
