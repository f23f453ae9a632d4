/**
 * The device bench's world, written through the sync server's own db layer before the server
 * starts, with bench/lib/seed.ts's steps: one person with friends and a long ping history (half
 * sent, half received, spread over the last 60 days, a reaction on every fifth, a third of the
 * received ones unread), and one signed-in session whose cookie the browser gets.
 */
import type { Config } from '../../sync-server/src/config';
import type { Db } from '../../sync-server/src/db/connection';
import { seedSteps } from '../lib/seed';

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
  const steps = seedSteps(config, now);
  let counter = 0;

  // The highest daily limit (seedSteps.user): the drain's 1,000 writes are spread over the
  // friends, each well under it, so every write is a real 201.
  function user(trx: Db, first: string) {
    counter += 1;
    return steps.user(trx, {
      email: `${first.toLowerCase()}${counter}-${now}@device.bench.test`,
      firstName: `${first}${counter}`,
      lastName: 'Device',
    });
  }

  return db.transaction().execute(async (trx) => {
    const me = await user(trx, 'Dana');
    const prompt = await steps.anyPrompt(trx, me.id);

    const friendIds: string[] = [];
    for (let i = 0; i < sizes.friends; i++) {
      const f = await user(trx, 'Friend');
      await steps.befriend(trx, me.id, f.id);
      friendIds.push(f.id);
    }

    const rows = await steps.pings(
      trx,
      { id: prompt.id, text: prompt.text, emoji: prompt.emoji ?? '👋' },
      Array.from({ length: sizes.pings }, (_, k) => {
        const friend = friendIds[k % friendIds.length]!;
        const mine = k % 2 === 0;
        return {
          sender: mine ? me.id : friend,
          receiver: mine ? friend : me.id,
          at: now - 60 * DAY + Math.floor((k * 59 * DAY) / sizes.pings),
        };
      }),
    );
    // Two thirds of what the person received has been read (the rest keeps the unread badge).
    const readIds = rows.filter((r, k) => r.receiverId === me.id && k % 3 !== 1).map((r) => r.id);
    for (let i = 0; i < readIds.length; i += 500) {
      await trx
        .updateTable('pings')
        .set({ isRead: 1, readAt: new Date(now - DAY).toISOString() })
        .where('id', 'in', readIds.slice(i, i + 500))
        .execute();
    }
    await steps.reactToEveryFifth(trx, rows);

    const sid = await steps.session(trx, me.id);
    return {
      person: { id: me.id, firstName: me.firstName ?? '', lastName: me.lastName ?? '' },
      cookies: steps.cookies(sid),
      friendIds,
      pings: rows.length,
    };
  });
}
