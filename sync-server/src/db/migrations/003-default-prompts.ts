import { sql, type Kysely } from 'kysely';
import { createIndex } from './schema';
import { promptAssignmentsTable } from './tables';

/**
 * The default prompts every person has, with ids hard-coded so every server (and every device's
 * copy) agrees on them. They are UUIDv7s with a zero timestamp: valid ids that sort before any
 * prompt a person creates. A new default prompt is a new migration with the next id.
 *
 * Also rebuilds prompt_assignments with the owner in its key: default prompts are shared, so two
 * people may each assign the same default prompt to the same friend.
 */
export const DEFAULT_PROMPTS: readonly { id: string; text: string; emoji: string }[] = [
  { id: '00000000-0000-7000-8000-000000000001', text: 'Ping me when you need a hug', emoji: '🤗' },
  {
    id: '00000000-0000-7000-8000-000000000002',
    text: "Ping me when you're proud of something",
    emoji: '🌟',
  },
  { id: '00000000-0000-7000-8000-000000000003', text: 'Ping me when you miss me', emoji: '💕' },
  {
    id: '00000000-0000-7000-8000-000000000004',
    text: 'Ping me when you need to talk',
    emoji: '💬',
  },
  {
    id: '00000000-0000-7000-8000-000000000005',
    text: 'Ping me when you want to celebrate',
    emoji: '🎉',
  },
  {
    id: '00000000-0000-7000-8000-000000000006',
    text: "Ping me when you're thinking of me",
    emoji: '💭',
  },
  {
    id: '00000000-0000-7000-8000-000000000007',
    text: 'Ping me when you need support',
    emoji: '🤝',
  },
  {
    id: '00000000-0000-7000-8000-000000000008',
    text: 'Ping me when you want an adventure',
    emoji: '🗺️',
  },
  { id: '00000000-0000-7000-8000-000000000009', text: 'Ping me when you feel low', emoji: '🫂' },
  {
    id: '00000000-0000-7000-8000-00000000000a',
    text: "Ping me when you're free for chai",
    emoji: '☕',
  },
  {
    id: '00000000-0000-7000-8000-00000000000b',
    text: 'Ping me when you need to vent',
    emoji: '😤',
  },
  {
    id: '00000000-0000-7000-8000-00000000000c',
    text: 'Ping me when you want company',
    emoji: '👯',
  },
  { id: '00000000-0000-7000-8000-00000000000d', text: 'Ping me when you love me', emoji: '❤️' },
  { id: '00000000-0000-7000-8000-00000000000e', text: 'Thinking of you right now', emoji: '🌈' },
];

const SEEDED_AT = '2024-01-01T00:00:00.000Z';

interface SeedDb {
  prompts: {
    id: string;
    owner_id: string | null;
    text: string;
    emoji: string;
    is_default: number;
    position: number;
    created_at: string;
    updated_at: string;
  };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const seed = db as unknown as Kysely<SeedDb>;
  await seed
    .insertInto('prompts')
    .values(
      DEFAULT_PROMPTS.map((p, i) => ({
        id: p.id,
        owner_id: null,
        text: p.text,
        emoji: p.emoji,
        is_default: 1,
        position: i + 1,
        created_at: SEEDED_AT,
        updated_at: SEEDED_AT,
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();

  await promptAssignmentsTable(db, 'prompt_assignments_new')
    .addPrimaryKeyConstraint('prompt_assignments_owner_pk', ['owner_id', 'prompt_id', 'friend_id'])
    .execute();
  await sql`insert into prompt_assignments_new (prompt_id, friend_id, owner_id, created_at)
    select prompt_id, friend_id, owner_id, created_at from prompt_assignments`.execute(db);
  await db.schema.dropTable('prompt_assignments').execute();
  await sql`alter table prompt_assignments_new rename to prompt_assignments`.execute(db);
  await createIndex(db, 'prompt_assignments_prompt', 'prompt_assignments', [
    'prompt_id',
    'owner_id',
  ]);
  await createIndex(db, 'prompts_default_position', 'prompts', ['is_default', 'position']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const seed = db as unknown as Kysely<SeedDb>;
  await seed
    .deleteFrom('prompts')
    .where(
      'id',
      'in',
      DEFAULT_PROMPTS.map((p) => p.id),
    )
    .execute();
}
