import { sql, type Kysely } from 'kysely';
import { createIndex } from './schema';

/**
 * Seeded ping packs (spec section 2, Profile → Packs) every person can install, plus a guard on
 * anchors: at most one pending-or-accepted anchor per unordered pair (routes/anchors.ts checks
 * first and answers 409; the index makes a race between two deliveries fail instead of doubling).
 *
 * Seeded packs have fixed ids so every server and device agrees on them.
 */
export const SEEDED_PACKS: {
  id: string;
  title: string;
  description: string;
  tags: string[];
  prompts: { text: string; emoji: string }[];
}[] = [
  {
    id: '0190a000-0000-7000-8000-000000000001',
    title: 'Cozy Check-ins',
    description: 'Gentle prompts for the days when a little warmth goes a long way.',
    tags: ['comfort', 'daily'],
    prompts: [
      { text: 'Ping me when you need a hug', emoji: '🤗' },
      { text: "Ping me when you're having a cozy night in", emoji: '🛋️' },
      { text: 'Ping me when you want to talk', emoji: '💬' },
      { text: "Ping me when you're feeling low", emoji: '💙' },
      { text: 'Ping me when you need a pep talk', emoji: '💪' },
    ],
  },
  {
    id: '0190a000-0000-7000-8000-000000000002',
    title: 'Celebrate Together',
    description: 'Big wins, small wins: share them the moment they happen.',
    tags: ['celebration', 'wins'],
    prompts: [
      { text: "Ping me when you did something you're proud of", emoji: '🌟' },
      { text: 'Ping me when you want to celebrate', emoji: '🎉' },
      { text: 'Ping me when you finish a big task', emoji: '✅' },
      { text: 'Ping me when you get good news', emoji: '🥳' },
    ],
  },
  {
    id: '0190a000-0000-7000-8000-000000000003',
    title: 'Adventure Buddies',
    description: 'For friends who are always up for the next plan.',
    tags: ['adventure', 'plans', 'outdoors'],
    prompts: [
      { text: "Ping me when you're up for an adventure", emoji: '🗺️' },
      { text: "Ping me when you're free for chai", emoji: '☕' },
      { text: 'Ping me when you want company', emoji: '👯' },
      { text: 'Ping me when you find a new spot', emoji: '📍' },
      { text: 'Ping me when you want to go for a walk', emoji: '🚶' },
    ],
  },
  {
    id: '0190a000-0000-7000-8000-000000000004',
    title: 'Long Distance Love',
    description: 'Stay close across time zones with a tap.',
    tags: ['long-distance', 'love'],
    prompts: [
      { text: 'Ping me when you miss me', emoji: '💕' },
      { text: "Ping me when you're thinking of me", emoji: '💭' },
      { text: "Ping me when you're about to sleep", emoji: '🌙' },
      { text: 'Ping me when you wake up', emoji: '☀️' },
      { text: 'Ping me when you hear our song', emoji: '🎶' },
      { text: 'Ping me when you need support', emoji: '🤝' },
    ],
  },
];

const SEEDED_AT = '2024-07-01T00:00:00.000Z';

export async function up(db: Kysely<unknown>): Promise<void> {
  const k = db as Kysely<Record<string, Record<string, unknown>>>;
  await k
    .insertInto('packs')
    .values(
      SEEDED_PACKS.map((p) => ({
        id: p.id,
        owner_id: null,
        title: p.title,
        description: p.description,
        tags: JSON.stringify(p.tags),
        prompts: JSON.stringify(p.prompts),
        install_count: 0,
        created_at: SEEDED_AT,
      })),
    )
    .execute();
  await createIndex(db, 'packs_owner', 'packs', ['owner_id']);
  await sql`CREATE UNIQUE INDEX anchors_active_pair ON anchors (min(user_id, friend_id), max(user_id, friend_id)) WHERE status IN ('pending', 'accepted')`.execute(
    db,
  );
}
