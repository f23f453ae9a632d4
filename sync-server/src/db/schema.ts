/**
 * The database as Kysely sees it. Columns are snake_case in SQL and camelCase here
 * (Kysely's CamelCasePlugin maps them), so this is the one place the two meet.
 * Booleans are 0/1 integers and times ISO-8601 strings, which both SQLite and PostgreSQL hold.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  tokens: TokensTable;
  friendships: FriendshipsTable;
  idempotencyKeys: IdempotencyKeysTable;
  rateLimits: RateLimitsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type FriendshipRow = Selectable<FriendshipsTable>;
export type Unused = Generated<number>;
