/**
 * The database as Kysely sees it. Columns are snake_case in SQL and camelCase here
 * (Kysely's CamelCasePlugin maps them), so this is the one place the two meet.
 * Booleans are 0/1 integers and times ISO-8601 strings, which both SQLite and PostgreSQL hold.
 */
import type { Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: string;
  email: string;
  passwordHash: string | null;
  passwordChangedAt: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  tagline: string | null;
  handle: string | null;
  bio: string | null;
  status: string | null;
  location: string | null;
  personalLink: string | null;
  profileVisibility: 'public' | 'private';
  onboardingCompleted: number;
  onboardingStep: number | null;
  isAdmin: number;
  emailVerified: number;
  rateLimitPerDay: number;
  quietHoursStart: string | null;
  quietHoursEnd: string | null;
  inviteCode: string;
  googleSub: string | null;
  lastActiveAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionsTable {
  id: string;
  userId: string | null;
  data: string;
  expiresAt: number;
  createdAt: string;
  /** ms; touched at most once an hour (migration 005). */
  lastSeenAt: number | null;
}

export interface TokensTable {
  id: string;
  userId: string;
  kind: 'reset' | 'verify';
  tokenHash: string;
  expiresAt: number;
  usedAt: string | null;
  createdAt: string;
}

export interface FriendshipsTable {
  id: string;
  requesterId: string;
  addresseeId: string;
  status: 'pending' | 'accepted';
  createdAt: string;
  acceptedAt: string | null;
}

export interface IdempotencyKeysTable {
  caller: string;
  key: string;
  requestHash: string;
  status: number;
  body: string;
  createdAt: string;
}

export interface RateLimitsTable {
  bucket: string;
  count: number;
  resetAt: number;
}

export interface PromptsTable {
  id: string;
  ownerId: string | null;
  text: string;
  emoji: string;
  isDefault: number;
  position: number;
  createdAt: string;
  updatedAt: string;
}

export interface PromptAssignmentsTable {
  promptId: string;
  friendId: string;
  ownerId: string;
  createdAt: string;
}

export type PingKind = 'prompt' | 'custom' | 'surprise' | 'anchor';

export interface PingsTable {
  id: string;
  senderId: string;
  receiverId: string;
  kind: PingKind;
  promptId: string | null;
  promptText: string | null;
  promptEmoji: string | null;
  customText: string | null;
  customEmoji: string | null;
  anchorId: string | null;
  groupId: string | null;
  isRead: number;
  readAt: string | null;
  createdAt: string;
  /** When the sender wrote it, where earlier than createdAt (migration 007); null: the same. */
  writtenAt: string | null;
}

export interface ReactionsTable {
  id: string;
  pingId: string;
  userId: string;
  reactionType: 'heart' | 'yes' | 'wow';
  createdAt: string;
}

export interface AnchorsTable {
  id: string;
  userId: string;
  friendId: string;
  label: string | null;
  text: string;
  emoji: string;
  color: string;
  status: 'pending' | 'accepted' | 'declined';
  createdAt: string;
  respondedAt: string | null;
}

export interface MoodsTable {
  id: string;
  userId: string;
  friendId: string;
  mood: string;
  emoji: string;
  note: string | null;
  createdAt: string;
}

export interface MomentsTable {
  id: string;
  userId: string;
  pingId: string;
  title: string;
  description: string | null;
  createdAt: string;
}

export interface PacksTable {
  id: string;
  ownerId: string | null;
  title: string;
  description: string | null;
  /** JSON array of strings */
  tags: string;
  /** JSON array of {text, emoji} */
  prompts: string;
  installCount: number;
  createdAt: string;
}

export interface PackInstallsTable {
  packId: string;
  userId: string;
  createdAt: string;
}

export interface PushSubscriptionsTable {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  deviceId: string | null;
  createdAt: string;
}

export interface EnergySnapshotsTable {
  userId: string;
  friendId: string;
  score: number;
  level: string;
  /** JSON of the metrics */
  metrics: string;
  computedAt: string;
}

/** 'create': a record's first change (a delivered ping: each node's hub sends new_ping from it). */
export type ChangeOp = 'upsert' | 'delete' | 'create';

/** The change log (migration 008): each person's changes, numbered 1, 2, 3… per person. */
export interface ChangesTable {
  userId: string;
  seq: number;
  entity: string;
  entityId: string;
  op: ChangeOp;
  createdAt: string;
}

/** Each person's newest change number, and the highest one pruned from the log. */
export interface ChangeCountersTable {
  userId: string;
  seq: number;
  floor: number;
}

export interface ServerSettingsTable {
  name: string;
  value: string;
}

/** A Web Push to send (migration 009); `claimedUntil` (ms) is 0 until a node claims it. */
export interface PushJobsTable {
  id: string;
  receiverId: string;
  job: string;
  createdAt: number;
  claimedUntil: number;
}

export interface BlocksTable {
  blockerId: string;
  blockedId: string;
  createdAt: string;
}

export interface ReportsTable {
  id: string;
  reporterId: string;
  reportedUserId: string;
  pingId: string | null;
  reason: 'spam' | 'harassment' | 'inappropriate' | 'other';
  details: string | null;
  status: 'open' | 'resolved';
  note: string | null;
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  tokens: TokensTable;
  friendships: FriendshipsTable;
  idempotencyKeys: IdempotencyKeysTable;
  rateLimits: RateLimitsTable;
  prompts: PromptsTable;
  promptAssignments: PromptAssignmentsTable;
  pings: PingsTable;
  reactions: ReactionsTable;
  anchors: AnchorsTable;
  moods: MoodsTable;
  moments: MomentsTable;
  packs: PacksTable;
  packInstalls: PackInstallsTable;
  pushSubscriptions: PushSubscriptionsTable;
  energySnapshots: EnergySnapshotsTable;
  changes: ChangesTable;
  changeCounters: ChangeCountersTable;
  serverSettings: ServerSettingsTable;
  pushJobs: PushJobsTable;
  blocks: BlocksTable;
  reports: ReportsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type FriendshipRow = Selectable<FriendshipsTable>;
export type PingRow = Selectable<PingsTable>;
export type PromptRow = Selectable<PromptsTable>;
export type AnchorRow = Selectable<AnchorsTable>;
