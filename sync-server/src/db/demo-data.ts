/**
 * Writes used only by `npm run demo`: a short ping history inserted directly, because the ping
 * routes are not the demo's concern. Each write records its change-log rows like a route would.
 */
import { randomBytes } from 'node:crypto';
import type { ReactionType } from '@pingme/shared';
import { recordChange } from './changes';
import type { Db } from './connection';

/** A UUIDv7 for the given instant: ids sort by time, as ARCHITECTURE.md asks of pings. */
export function uuidv7(at: number = Date.now()): string {
  const bytes = randomBytes(16);
  const ms = BigInt(at);
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface DemoPing {
  senderId: string;
  receiverId: string;
  promptText: string;
  promptEmoji: string;
  createdAt: Date;
  read: boolean;
}

export async function countPingsBetween(db: Db, a: string, b: string): Promise<number> {
  const r = await db
    .selectFrom('pings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) =>
      eb.or([
        eb.and([eb('senderId', '=', a), eb('receiverId', '=', b)]),
        eb.and([eb('senderId', '=', b), eb('receiverId', '=', a)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(r.n);
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
      promptId: null,
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
