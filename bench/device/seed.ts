/**
 * The device bench's world, written through the sync server's own db layer before the server
 * starts (as bench/lib/seed.ts does): one person with friends and a long ping history (half
 * sent, half received, spread over the last 60 days, a reaction on every fifth, a third of the
 * received ones unread), and one signed-in session whose cookie the browser gets.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import Keygrip from 'keygrip';
import { LIMITS, REACTION_TYPES, uuidv7 } from '@pingme/shared';
import type { Config } from '../../sync-server/src/config';
import { recordChange } from '../../sync-server/src/db/changes';
import type { Db } from '../../sync-server/src/db/connection';
import { insertFriendship } from '../../sync-server/src/db/friendships';
import { insertPings, replaceReaction, type NewPing } from '../../sync-server/src/db/pings';
import { visiblePromptIds } from '../../sync-server/src/db/prompts';
import { setSession } from '../../sync-server/src/db/sessions';
import { insertUser } from '../../sync-server/src/db/users';
import { SESSION_COOKIE } from '../../sync-server/src/middleware/session';

export interface DeviceWorld {
  person: { id: string; firstName: string; lastName: string };
  /** The session cookie pairs (name=value), as koa-session would set them. */
  cookies: { name: string; value: string }[];
  friendIds: string[];
  pings: number;
}

const DAY = 24 * 3600_000;

export async function seedDevice(
  db: Db,
  config: Config,
  sizes: { friends: number; pings: number },
): Promise<DeviceWorld> {
  const now = Date.now();
  let counter = 0;
  const grip = new Keygrip(config.sessionKeys);

  async function user(trx: Db, first: string) {
    counter += 1;
    const iso = new Date(now - 90 * DAY).toISOString();
    return insertUser(trx, {
      id: randomUUID(),
      email: `${first.toLowerCase()}${counter}-${now}@device.bench.test`,
      passwordHash: null,
      firstName: `${first}${counter}`,
      lastName: 'Device',
      profileVisibility: 'public',
      onboardingCompleted: 1,
      onboardingStep: null,
      isAdmin: 0,
      emailVerified: 1,
      // The highest limit a person may choose: the drain's 1,000 writes are spread over the
      // friends, each well under it, so every write is a real 201.
      rateLimitPerDay: LIMITS.dailyPingLimitMax,
      inviteCode: randomBytes(6).toString('base64url'),
      createdAt: iso,
      updatedAt: iso,
      lastActiveAt: new Date(now).toISOString(),
    });
  }

  return db.transaction().execute(async (trx) => {
    const me = await user(trx, 'Dana');
    const [promptId] = await visiblePromptIds(trx, me.id, undefined, 1);
    if (!promptId) throw new Error('no default prompt in the database');
    const prompt = await trx
      .selectFrom('prompts')
      .select(['text', 'emoji'])
      .where('id', '=', promptId)
      .executeTakeFirstOrThrow();

    const friendIds: string[] = [];
    for (let i = 0; i < sizes.friends; i++) {
      const f = await user(trx, 'Friend');
      const row = await insertFriendship(trx, {
        requesterId: me.id,
        addresseeId: f.id,
        status: 'accepted',
        at: new Date(now - 60 * DAY).toISOString(),
      });
      await recordChange(trx, [me.id, f.id], 'friendship', row.id);
      friendIds.push(f.id);
    }

    const rows: NewPing[] = Array.from({ length: sizes.pings }, (_, k) => {
      const friend = friendIds[k % friendIds.length]!;
      const mine = k % 2 === 0;
      const at = now - 60 * DAY + Math.floor((k * 59 * DAY) / sizes.pings);
      return {
        id: uuidv7(at),
        senderId: mine ? me.id : friend,
        receiverId: mine ? friend : me.id,
        kind: 'prompt',
        promptId,
        promptText: prompt.text,
        promptEmoji: prompt.emoji ?? '👋',
        customText: null,
        customEmoji: null,
        anchorId: null,
        groupId: null,
        createdAt: new Date(at).toISOString(),
      };
    });
    await insertPings(trx, rows);
    for (const r of rows) await recordChange(trx, [r.senderId, r.receiverId], 'ping', r.id);
    // Two thirds of what the person received has been read (the rest keeps the unread badge).
    const readIds = rows.filter((r, k) => r.receiverId === me.id && k % 3 !== 1).map((r) => r.id);
    for (let i = 0; i < readIds.length; i += 500) {
      await trx
        .updateTable('pings')
        .set({ isRead: 1, readAt: new Date(now - DAY).toISOString() })
        .where('id', 'in', readIds.slice(i, i + 500))
        .execute();
    }
    for (let k = 0; k < rows.length; k += 5) {
      const r = rows[k]!;
      await replaceReaction(trx, {
        id: uuidv7(Date.parse(r.createdAt) + 60_000),
        pingId: r.id,
        userId: r.receiverId,
        reactionType: REACTION_TYPES[k % REACTION_TYPES.length]!,
      });
      await recordChange(trx, [r.senderId, r.receiverId], 'ping', r.id);
    }

    const sid = randomBytes(24).toString('base64url');
    await setSession(
      trx,
      sid,
      {
        userId: me.id,
        signedInAt: now,
        _expire: now + config.sessionMaxAgeMs,
        _maxAge: config.sessionMaxAgeMs,
      },
      now + config.sessionMaxAgeMs,
    );
    const pair = `${SESSION_COOKIE}=${sid}`;
    return {
      person: { id: me.id, firstName: me.firstName ?? '', lastName: me.lastName ?? '' },
      cookies: [
        { name: SESSION_COOKIE, value: sid },
        { name: `${SESSION_COOKIE}.sig`, value: grip.sign(pair) },
      ],
      friendIds,
      pings: rows.length,
    };
  });
}
