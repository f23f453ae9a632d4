/**
 * `npm run demo`: fills the configured database (DATA_DIR) with a small living example: five
 * people (one private), friendships among them, one pending request, and a few days of pings
 * with reads and a reaction. Safe to run again: people who exist are kept as they are, pairs
 * that are already linked or already have pings are left alone.
 */
import type { ReactionType } from '@pingme/shared';
import { databaseLocation, loadConfig } from '../config';
import { recordChange } from '../db/changes';
import { openDatabase, type Db } from '../db/connection';
import { countPingsBetween, insertDemoPing, insertDemoReaction } from '../db/demo-data';
import { findFriendshipBetween, insertFriendship } from '../db/friendships';
import { DEFAULT_PROMPTS } from '../db/migrations/003-default-prompts';
import type { UserRow } from '../db/schema';
import { findUserByEmail, findUserByHandle } from '../db/users';
import { createUser } from '../services/accounts';
import { hashPassword } from '../services/passwords';
import type { Config } from '../config';

const DEMO_PASSWORD = 'pingme-demo';

interface DemoPerson {
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  handle: string;
  tagline: string;
  bio: string;
  location: string;
  profileVisibility: 'public' | 'private';
}

const PEOPLE: DemoPerson[] = [
  {
    key: 'ada',
    email: 'ada@demo.pingme',
    firstName: 'Ada',
    lastName: 'Lovelace',
    handle: 'ada',
    tagline: 'Weaving algebraic patterns 🧵',
    bio: 'Poet of numbers. Tea first, then engines.',
    location: 'London',
    profileVisibility: 'public',
  },
  {
    key: 'grace',
    email: 'grace@demo.pingme',
    firstName: 'Grace',
    lastName: 'Hopper',
    handle: 'amazing_grace',
    tagline: 'It is easier to ask forgiveness ✨',
    bio: 'Debugging since the moth. Ask me about nanoseconds.',
    location: 'New York',
    profileVisibility: 'public',
  },
  {
    key: 'alan',
    email: 'alan@demo.pingme',
    firstName: 'Alan',
    lastName: 'Turing',
    handle: 'alan_t',
    tagline: 'Out for a long run 🏃',
    bio: 'Private profile: reach me with my invite link.',
    location: 'Manchester',
    profileVisibility: 'private',
  },
  {
    key: 'katherine',
    email: 'katherine@demo.pingme',
    firstName: 'Katherine',
    lastName: 'Johnson',
    handle: 'kj_orbits',
    tagline: 'Checking the math twice 🚀',
    bio: 'Trajectories, tea and good company.',
    location: 'Toronto',
    profileVisibility: 'public',
  },
  {
    key: 'margaret',
    email: 'margaret@demo.pingme',
    firstName: 'Margaret',
    lastName: 'Hamilton',
    handle: 'mh_apollo',
    tagline: 'Software engineering is a thing 🌙',
    bio: 'Asynchronous by nature, priority-scheduled by choice.',
    location: 'San Francisco',
    profileVisibility: 'public',
  },
];

/** [requester, addressee, days ago]: accepted friendships. */
const FRIENDSHIPS: [string, string, number][] = [
  ['ada', 'grace', 21],
  ['ada', 'alan', 14],
  ['ada', 'katherine', 9],
  ['grace', 'katherine', 6],
  ['alan', 'margaret', 3],
];
/** One request still waiting: Margaret asked Ada. */
const PENDING: [string, string, number][] = [['margaret', 'ada', 1]];

/** [sender, receiver, default prompt text, hours ago, read, reaction by the receiver]. */
const PINGS: [string, string, string, number, boolean, ReactionType | null][] = [
  ['grace', 'ada', 'Ping me when you need a hug', 96, true, 'heart'],
  ['ada', 'grace', "Ping me when you're proud of something", 70, true, null],
  ['alan', 'ada', 'Ping me when you miss me', 50, true, null],
  ['katherine', 'ada', 'Ping me when you want to celebrate', 26, true, null],
  ['ada', 'katherine', 'Ping me when you need to talk', 20, false, null],
  ['grace', 'katherine', 'Ping me when you need support', 8, false, null],
  ['grace', 'ada', "Ping me when you're free for chai", 2, false, null],
];

/** The default prompt (migration 003) with that text, so the pings count as uses of it. */
function defaultPrompt(text: string): { id: string; text: string; emoji: string } {
  const prompt = DEFAULT_PROMPTS.find((p) => p.text === text);
  if (!prompt) throw new Error(`No default prompt reads "${text}"`);
  return prompt;
}

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

async function ensurePerson(
  db: Db,
  config: Config,
  p: DemoPerson,
  passwordHash: string,
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByEmail(db, p.email);
  if (existing) return { user: existing, created: false };
  const user = await db.transaction().execute(async (trx) => {
    // A real account may already use the handle: then this demo person goes without one.
    const handleTaken = await findUserByHandle(trx, p.handle);
    const u = await createUser(trx, config, {
      email: p.email,
      firstName: p.firstName,
      lastName: p.lastName,
      passwordHash,
      passwordChangedAt: new Date().toISOString(),
      handle: handleTaken ? null : p.handle,
      tagline: p.tagline,
      bio: p.bio,
      location: p.location,
      profileVisibility: p.profileVisibility,
      onboardingCompleted: 1,
      emailVerified: 1,
    });
    await recordChange(trx, [u.id], 'user', u.id);
    return u;
  });
  return { user, created: true };
}

async function link(
  db: Db,
  a: UserRow,
  b: UserRow,
  status: 'pending' | 'accepted',
  daysAgo: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (await findFriendshipBetween(trx, a.id, b.id)) return false;
    const row = await insertFriendship(trx, {
      requesterId: a.id,
      addresseeId: b.id,
      status,
      at: new Date(Date.now() - daysAgo * DAY_MS).toISOString(),
    });
    await recordChange(trx, [a.id, b.id], 'friendship', row.id);
    return true;
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(databaseLocation(config));
  const { db } = database;
  try {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const people = new Map<string, UserRow>();
    let created = 0;
    for (const p of PEOPLE) {
      const r = await ensurePerson(db, config, p, passwordHash);
      people.set(p.key, r.user);
      if (r.created) created += 1;
      console.log(
        `${r.created ? 'created' : 'kept   '} ${p.firstName} ${p.lastName} <${p.email}>${p.profileVisibility === 'private' ? ' (private profile)' : ''}`,
      );
    }
    const who = (key: string) => people.get(key)!;

    let links = 0;
    for (const [a, b, days] of FRIENDSHIPS) {
      if (await link(db, who(a), who(b), 'accepted', days)) links += 1;
    }
    for (const [a, b, days] of PENDING) {
      if (await link(db, who(a), who(b), 'pending', days)) links += 1;
    }

    // Pings only for pairs that have none yet, so a second run adds nothing.
    const pairsWithHistory = new Set<string>();
    for (const [s, r] of PINGS) {
      const pair = [s, r].sort().join('+');
      if (pairsWithHistory.has(pair)) continue;
      if ((await countPingsBetween(db, who(s).id, who(r).id)) > 0) pairsWithHistory.add(pair);
    }
    let pings = 0;
    const now = Date.now();
    for (const [s, r, text, hoursAgo, read, reaction] of PINGS) {
      if (pairsWithHistory.has([s, r].sort().join('+'))) continue;
      await db.transaction().execute(async (trx) => {
        const createdAt = new Date(now - hoursAgo * HOUR_MS);
        const prompt = defaultPrompt(text);
        const pingId = await insertDemoPing(trx, {
          senderId: who(s).id,
          receiverId: who(r).id,
          promptId: prompt.id,
          promptText: prompt.text,
          promptEmoji: prompt.emoji,
          createdAt,
          read,
        });
        if (reaction) {
          await insertDemoReaction(trx, {
            pingId,
            userId: who(r).id,
            reactionType: reaction,
            createdAt: new Date(createdAt.getTime() + 20 * 60_000),
          });
        }
      });
      pings += 1;
    }

    console.log(
      `\nDemo data in ${config.databaseUrl ? 'the PostgreSQL database' : config.dbFile}: ${created} new people, ${links} new friendships or requests, ${pings} new pings.`,
    );
    console.log(
      `\nStart the server with \`npm start\`, open ${config.publicUrl}/auth and sign in:`,
    );
    for (const p of PEOPLE) console.log(`  ${p.email.padEnd(24)} password: ${DEMO_PASSWORD}`);
    const alan = who('alan');
    console.log(
      `\nAlan's profile is private: others reach him through his invite link ${config.publicUrl}/invite/${alan.inviteCode}`,
    );
    console.log('Margaret has asked Ada to be friends: sign in as Ada to accept.');
    console.log('For the admin dashboard: npm run make-admin -- ada@demo.pingme');
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
