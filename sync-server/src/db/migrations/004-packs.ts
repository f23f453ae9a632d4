import { sql, type Kysely } from 'kysely';
import { createIndex } from './schema';

/**
 * Seeded ping packs (spec section 2, Profile → Packs) every person can install, plus a guard on
 * anchors: at most one pending-or-accepted anchor per unordered pair (routes/anchors.ts checks
 * first and answers 409; the index makes a race between two deliveries fail instead of doubling).
 *
 * Seeded packs have fixed ids so every server and device agrees on them.
 */
interface Pack<Prompt> {
  id: string;
  title: string;
  description: string;
  tags: string[];
  prompts: Prompt[];
}

/** The packs as written here: each prompt a [text, emoji] pair. */
const PACKS: Pack<[text: string, emoji: string]>[] = [
  {
    id: '0190a000-0000-7000-8000-000000000001',
    title: 'Cozy Check-ins',
    description: 'Gentle prompts for the days when a little warmth goes a long way.',
    tags: ['comfort', 'daily'],
    prompts: [
      ['Ping me when you need a hug', '🤗'],
      ["Ping me when you're having a cozy night in", '🛋️'],
      ['Ping me when you want to talk', '💬'],
      ["Ping me when you're feeling low", '💙'],
      ['Ping me when you need a pep talk', '💪'],
    ],
  },
  {
    id: '0190a000-0000-7000-8000-000000000002',
    title: 'Celebrate Together',
    description: 'Big wins, small wins: share them the moment they happen.',
    tags: ['celebration', 'wins'],
    prompts: [
      ["Ping me when you did something you're proud of", '🌟'],
      ['Ping me when you want to celebrate', '🎉'],
      ['Ping me when you finish a big task', '✅'],
      ['Ping me when you get good news', '🥳'],
    ],
  },
  {
    id: '0190a000-0000-7000-8000-000000000003',
    title: 'Adventure Buddies',
    description: 'For friends who are always up for the next plan.',
    tags: ['adventure', 'plans', 'outdoors'],
    prompts: [
      ["Ping me when you're up for an adventure", '🗺️'],
      ["Ping me when you're free for chai", '☕'],
      ['Ping me when you want company', '👯'],
      ['Ping me when you find a new spot', '📍'],
      ['Ping me when you want to go for a walk', '🚶'],
    ],
  },
  {
    id: '0190a000-0000-7000-8000-000000000004',
    title: 'Long Distance Love',
    description: 'Stay close across time zones with a tap.',
    tags: ['long-distance', 'love'],
    prompts: [
      ['Ping me when you miss me', '💕'],
      ["Ping me when you're thinking of me", '💭'],
      ["Ping me when you're about to sleep", '🌙'],
      ['Ping me when you wake up', '☀️'],
      ['Ping me when you hear our song', '🎶'],
      ['Ping me when you need support', '🤝'],
    ],
  },
];

/** The packs with each prompt as the {text, emoji} object the `prompts` column's JSON holds. */
export const SEEDED_PACKS: Pack<{ text: string; emoji: string }>[] = PACKS.map((p) => ({
  ...p,
  prompts: p.prompts.map(([text, emoji]) => ({ text, emoji })),
}));

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
