import type { SelfUser, UserProfileFields, UserSummary } from '@pingme/shared';
import type { Db } from './connection';
import type { NewUser, UserRow, UserUpdate } from './schema';
import { nowIso } from './connection';

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function findUserByHandle(db: Db, handle: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('handle', '=', handle).executeTakeFirst();
}

export async function findUserByInviteCode(db: Db, code: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('inviteCode', '=', code).executeTakeFirst();
}

export async function findUserByGoogleSub(db: Db, sub: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('googleSub', '=', sub).executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export async function updateUser(db: Db, id: string, patch: UserUpdate): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({ ...patch, updatedAt: nowIso() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Takes admin rights back from listed addresses that were never proven: before ADMIN_EMAILS
 * waited for a verified address, anyone could sign up as a listed one and become an admin.
 * Returns the e-mails changed.
 */
export async function revokeUnprovenListedAdmins(db: Db, listed: string[]): Promise<string[]> {
  if (listed.length === 0) return [];
  const rows = await db
    .updateTable('users')
    .set({ isAdmin: 0, updatedAt: nowIso() })
    .where('isAdmin', '=', 1)
    .where('emailVerified', '=', 0)
    .where('email', 'in', listed)
    .returning('email')
    .execute();
  return rows.map((r) => r.email);
}

export function toSummary(u: UserRow): UserSummary {
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    profileImageUrl: u.profileImageUrl,
  };
}

export function toProfileFields(u: UserRow): UserProfileFields {
  return {
    ...toSummary(u),
    email: u.email,
    tagline: u.tagline,
    handle: u.handle,
    bio: u.bio,
    status: u.status,
    location: u.location,
    personalLink: u.personalLink,
    profileVisibility: u.profileVisibility,
    createdAt: u.createdAt,
  };
}

export function toSelf(u: UserRow): SelfUser {
  return {
    ...toProfileFields(u),
    onboardingCompleted: u.onboardingCompleted === 1,
    onboardingStep: u.onboardingStep,
    isAdmin: u.isAdmin === 1,
    emailVerified: u.emailVerified === 1,
    hasPassword: u.passwordHash !== null,
    rateLimitPerDay: u.rateLimitPerDay,
    quietHoursStart: u.quietHoursStart,
    quietHoursEnd: u.quietHoursEnd,
    inviteCode: u.inviteCode,
  };
}
