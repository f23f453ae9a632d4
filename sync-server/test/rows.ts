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

/** A custom ping from `senderId` to `receiverId`, unread, with every column `pings` holds. */
export function pingRow(
  id: string,
  senderId: string,
  receiverId: string,
  createdAt = new Date().toISOString(),
) {
  return {
    id,
    senderId,
    receiverId,
    kind: 'custom' as const,
    promptId: null,
    promptText: null,
    promptEmoji: null,
    customText: `from ${senderId} to ${receiverId}`,
    customEmoji: '👋',
    anchorId: null,
    groupId: null,
    isRead: 0,
    readAt: null,
    createdAt,
    writtenAt: null,
  };
}
