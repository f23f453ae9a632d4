/**
 * Rows for tests that write the database directly, below the API (a migration's starting state, a
 * query's edge cases): a person with every column the `users` table requires.
 */
export function personRow(id: string, now = new Date().toISOString()) {
  return {
    id,
    email: `${id}@example.test`,
    profileVisibility: 'public' as const,
    onboardingCompleted: 1,
    isAdmin: 0,
    emailVerified: 1,
    rateLimitPerDay: 50,
    inviteCode: `code-${id}`,
    createdAt: now,
    updatedAt: now,
  };
}
