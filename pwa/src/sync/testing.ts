/**
 * Writes for the sync unit tests: real mutations with arguments their schemas accept, numbered
 * so a test can tell entries apart wherever they travel (outbox rows, batch entries).
 */
import type { BatchEntry, Ping } from '@pingme/shared';
import type { OutboxRow } from '../db';

export const TEST_FRIEND = '0190a000-0000-7000-8000-0000000000f1';

/** A valid id that carries a number. */
export const testId = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** The person signed in on the test device. */
export const TEST_ME = testId(900);

export const testPerson = (id: string, firstName: string) => ({
  id,
  firstName,
  lastName: 'T',
  profileImageUrl: null,
});

/** A ping as the server answers and pulls it: from TEST_ME to TEST_FRIEND unless `fields` say. */
export function serverPing(id: string, fields: Partial<Ping> = {}): Ping {
  return {
    id,
    kind: 'custom',
    senderId: TEST_ME,
    receiverId: TEST_FRIEND,
    sender: testPerson(TEST_ME, 'Ada'),
    receiver: testPerson(TEST_FRIEND, 'Bo'),
    prompt: null,
    customText: 'hello',
    customEmoji: '💭',
    anchorId: null,
    groupId: null,
    createdAt: '2026-11-24T10:00:00.000Z',
    isRead: false,
    readAt: null,
    isBookmarked: false,
    reactions: [],
    ...fields,
  };
}

/** The arguments of test write number `n`: a custom ping whose text is its number. */
export const numbered = (n: number) => ({
  id: testId(n),
  receiverId: TEST_FRIEND,
  customText: String(n),
});

/** The number of a test write, from its outbox row or its batch entry. */
export function numberOf(e: BatchEntry | OutboxRow): number {
  const args = ('name' in e ? e.args : e.body) as { customText: string };
  return Number(args.customText);
}
