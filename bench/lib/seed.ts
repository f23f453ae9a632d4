/**
 * The bench's world, written through the sync server's own db layer before the server starts:
 * people, friendships, sessions (with signed cookies, as koa-session would set them), and ping
 * history with its change-log rows. Everything goes in a few large transactions.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import Keygrip from 'keygrip';
import { LIMITS, REACTION_TYPES, uuidv7 } from '@pingme/shared';
import { recordChange } from '../../sync-server/src/db/changes';
import type { Db } from '../../sync-server/src/db/connection';
import { insertFriendship } from '../../sync-server/src/db/friendships';
import { insertPings, type NewPing } from '../../sync-server/src/db/ping-sends';
import { replaceReaction } from '../../sync-server/src/db/reactions';
import { visiblePromptIds } from '../../sync-server/src/db/prompts';
import { setSession } from '../../sync-server/src/db/sessions';
import { insertUser } from '../../sync-server/src/db/users';
import { SESSION_COOKIE } from '../../sync-server/src/db/sessions';
import type { Config } from '../../sync-server/src/config';

export interface BenchUser {
  id: string;
  /** A Cookie header for one signed-in session of this person. */
  cookie: string;
}

export interface SeedPing {
  id: string;
  senderId: string;
  receiverId: string;
}

export interface World {
  promptId: string;
  /** Benchmarks 1 and 3: people in a ring, each a friend of the next two. */
  ring: {
    users: BenchUser[];
    /** Directed friend pairs [sender index, receiver index]. */
    pairs: [number, number][];
    /** Two older pings per directed pair (for reactions). */
    pings: SeedPing[];
  };
  /** Benchmark 2: one receiver, the friends who ping them, and everyone else's sockets. */
  delivery: {
    receiver: BenchUser;
    senders: BenchUser[];
    /** One cookie (one session: one device) per socket. */
    otherSockets: BenchUser[];
  };
  /** Benchmark 4: one person with a long history. */
  pull: { person: BenchUser; friends: BenchUser[]; pings: number };
}

export interface SeedSizes {
  ringUsers: number;
  deliverySenders: number;
  otherUsers: number;
  socketsPerOther: number;
  pullFriends: number;
  pullPings: number;
}

export const DEFAULT_SIZES: SeedSizes = {
  ringUsers: 300,
  deliverySenders: 4,
  otherUsers: 1000,
  socketsPerOther: 5,
  pullFriends: 50,
  pullPings: 10_000,
};

const DAY = 24 * 3600_000;

export interface SeedPrompt {
  id: string;
  text: string;
  emoji: string;
}

/**
 * The steps both bench worlds are written with (this file's and bench/device/seed.ts), through
 * the sync server's own db layer, all dated from `now`.
 */
export function seedSteps(config: Config, now: number) {
  const grip = new Keygrip(config.sessionKeys);

  /** The session cookie and its signature, as koa-session would set them. */
  const cookies = (sid: string) => [
    { name: SESSION_COOKIE, value: sid },
    { name: `${SESSION_COOKIE}.sig`, value: grip.sign(`${SESSION_COOKIE}=${sid}`) },
  ];

  return {
    cookies,

    /** A Cookie header for the session `sid`. */
    cookieHeader: (sid: string) =>
      cookies(sid)
        .map((c) => `${c.name}=${c.value}`)
        .join('; '),

    /** A signed-in session row, the data koa-session itself would store for a sign-in: its sid. */
    async session(trx: Db, userId: string): Promise<string> {
      const sid = randomBytes(24).toString('base64url');
      const maxAge = config.sessionMaxAgeMs;
      await setSession(
        trx,
        sid,
        { userId, signedInAt: now, _expire: now + maxAge, _maxAge: maxAge },
        // The session's end (ms since the epoch), as sessionExpiry() gives it for a sign-in.
        now + maxAge,
      );
      return sid;
    },

    /** A verified, onboarded person who joined 90 days ago, active now. */
    user(trx: Db, names: { email: string; firstName: string; lastName: string }) {
      const iso = new Date(now - 90 * DAY).toISOString();
      return insertUser(trx, {
        id: randomUUID(),
        ...names,
        passwordHash: null,
        profileVisibility: 'public',
        onboardingCompleted: 1,
        onboardingStep: null,
        isAdmin: 0,
        emailVerified: 1,
        // The highest limit a person may choose, so the runs stay real 201s (docs/performance.md).
        rateLimitPerDay: LIMITS.dailyPingLimitMax,
        inviteCode: randomBytes(6).toString('base64url'),
        createdAt: iso,
        updatedAt: iso,
        lastActiveAt: new Date(now).toISOString(),
      });
    },

    /** An accepted friendship since 60 days, with its change-log row. */
    async befriend(trx: Db, aId: string, bId: string): Promise<void> {
      const f = await insertFriendship(trx, {
        requesterId: aId,
        addresseeId: bId,
        status: 'accepted',
        at: new Date(now - 60 * DAY).toISOString(),
      });
      await recordChange(trx, [aId, bId], 'friendship', f.id);
    },

    /** A default prompt every person may send (asked as `userId`). */
    async anyPrompt(trx: Db, userId: string) {
      const [id] = await visiblePromptIds(trx, userId, undefined, 1);
      if (!id) throw new Error('no default prompt in the database');
      const row = await trx
        .selectFrom('prompts')
        .select(['text', 'emoji'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return { id, text: row.text, emoji: row.emoji };
    },

    /** Pings of `prompt`, with their change-log rows. */
    async pings(
      trx: Db,
      prompt: SeedPrompt,
      list: { sender: string; receiver: string; at: number }[],
    ): Promise<NewPing[]> {
      const rows: NewPing[] = list.map((p) => ({
        id: uuidv7(p.at),
        senderId: p.sender,
        receiverId: p.receiver,
        kind: 'prompt',
        promptId: prompt.id,
        promptText: prompt.text,
        promptEmoji: prompt.emoji,
        customText: null,
        customEmoji: null,
        anchorId: null,
        groupId: null,
        createdAt: new Date(p.at).toISOString(),
      }));
      await insertPings(trx, rows);
      for (const r of rows) await recordChange(trx, [r.senderId, r.receiverId], 'ping', r.id);
      return rows;
    },

    /** A reaction on every fifth ping, by whoever received it, a minute after it. */
    async reactToEveryFifth(trx: Db, rows: NewPing[]): Promise<void> {
      for (let k = 0; k < rows.length; k += 5) {
        const r = rows[k]!;
        const at = Date.parse(r.createdAt) + 60_000;
        await replaceReaction(trx, {
          id: uuidv7(at),
          pingId: r.id,
          userId: r.receiverId,
          reactionType: REACTION_TYPES[k % REACTION_TYPES.length]!,
          createdAt: new Date(at).toISOString(),
        });
        await recordChange(trx, [r.senderId, r.receiverId], 'ping', r.id);
      }
    },
  };
}

export async function seedWorld(db: Db, config: Config, sizes: SeedSizes): Promise<World> {
  const now = Date.now();
  const steps = seedSteps(config, now);
  let counter = 0;

  const session = async (trx: Db, userId: string) =>
    steps.cookieHeader(await steps.session(trx, userId));

  async function person(trx: Db, role: string): Promise<BenchUser> {
    counter += 1;
    const u = await steps.user(trx, {
      email: `${role}${counter}@bench.test`,
      firstName: `${role[0]!.toUpperCase()}${role.slice(1)}${counter}`,
      lastName: 'Bench',
    });
    return { id: u.id, cookie: await session(trx, u.id) };
  }

  const befriend = (trx: Db, a: BenchUser, b: BenchUser) => steps.befriend(trx, a.id, b.id);

  /** `n` new people named for `role`, made one after another; `each` runs on each as it is made. */
  async function people(
    trx: Db,
    role: string,
    n: number,
    each?: (p: BenchUser) => Promise<void>,
  ): Promise<BenchUser[]> {
    const made: BenchUser[] = [];
    for (let i = 0; i < n; i++) {
      const p = await person(trx, role);
      await each?.(p);
      made.push(p);
    }
    return made;
  }

  let prompt: SeedPrompt = { id: '', text: '', emoji: '👋' };
  const pings = (trx: Db, list: { sender: string; receiver: string; at: number }[]) =>
    steps.pings(trx, prompt, list);

  return db.transaction().execute(async (trx) => {
    // Any default prompt: every person may send it.
    const anyone = await person(trx, 'prompter');
    const { id, text } = await steps.anyPrompt(trx, anyone.id);
    prompt = { id, text, emoji: '👋' };

    // 1 + 3: the ring.
    const users = await people(trx, 'ring', sizes.ringUsers);
    const pairs: [number, number][] = [];
    for (let i = 0; i < users.length; i++) {
      for (const d of [1, 2]) {
        const j = (i + d) % users.length;
        await befriend(trx, users[i]!, users[j]!);
        pairs.push([i, j], [j, i]);
      }
    }
    const ringPings = await pings(
      trx,
      pairs.flatMap(([s, r], k) =>
        [0, 1].map((n) => ({
          sender: users[s]!.id,
          receiver: users[r]!.id,
          at: now - 2 * DAY - (k * 2 + n) * 1000,
        })),
      ),
    );

    // 2: delivery.
    const receiver = await person(trx, 'receiver');
    const senders = await people(trx, 'sender', sizes.deliverySenders, (s) =>
      befriend(trx, s, receiver),
    );
    const otherSockets: BenchUser[] = [];
    for (let i = 0; i < sizes.otherUsers; i++) {
      const u = await person(trx, 'other');
      otherSockets.push(u);
      for (let k = 1; k < sizes.socketsPerOther; k++) {
        otherSockets.push({ id: u.id, cookie: await session(trx, u.id) });
      }
    }

    // 4: one person, their friends and a long history, spread over the last 60 days.
    const pullPerson = await person(trx, 'puller');
    const friends = await people(trx, 'friend', sizes.pullFriends, (f) =>
      befriend(trx, pullPerson, f),
    );
    const history = Array.from({ length: sizes.pullPings }, (_, k) => {
      const friend = friends[k % friends.length]!;
      const mine = k % 2 === 0;
      return {
        sender: mine ? pullPerson.id : friend.id,
        receiver: mine ? friend.id : pullPerson.id,
        at: now - 60 * DAY + Math.floor((k * 59 * DAY) / sizes.pullPings),
      };
    });
    const rows = await pings(trx, history);
    await steps.reactToEveryFifth(trx, rows);

    return {
      promptId: prompt.id,
      ring: {
        users,
        pairs,
        pings: ringPings.map((p) => ({ id: p.id, senderId: p.senderId, receiverId: p.receiverId })),
      },
      delivery: { receiver, senders, otherSockets },
      pull: { person: pullPerson, friends, pings: rows.length },
    };
  });
}
