/**
 * Every write of the friends and activity screens: an optimistic row plus an outbox entry in one
 * Dexie transaction (localWrite), with the spec's error toast for a refusal (section 8). Success
 * toasts are the caller's (they depend on the screen).
 */
import {
  FriendRequestResponse,
  uuidv7,
  type Anchor,
  type MoodName,
  type SyncFriendship,
  type UserSummary,
} from '@pingme/shared';
import { api } from '../../api';
import { localWrite } from '../../sync/local-write';
import { CUSTOM_PING_ERROR } from '../../sync/pings';
import { syncEngine } from '../../sync/engine';
import {
  acceptedFriendship,
  answeredAnchor,
  customPing,
  promptPing,
  sharedMood,
} from './optimistic';

const now = () => new Date().toISOString();

export async function acceptFriendRequest(request: SyncFriendship): Promise<void> {
  await localWrite({
    request: { method: 'POST', path: '/api/friends/accept', body: { requestId: request.id } },
    effects: [{ table: 'friendships', key: request.id, after: acceptedFriendship(request, now()) }],
    errorToast: { description: 'Failed to accept friend request' },
  });
}

export async function declineFriendRequest(request: SyncFriendship): Promise<void> {
  await localWrite({
    request: { method: 'POST', path: '/api/friends/reject', body: { requestId: request.id } },
    effects: [{ table: 'friendships', key: request.id, after: null }],
    errorToast: { description: 'Failed to decline friend request' },
  });
}

/**
 * Sends a friend request straight to the server: its id is the server's (the body takes none),
 * so an optimistic row could not be matched with the pulled one. A pull follows at once so the
 * request shows under 'Sent Requests' without waiting for the poke.
 */
export async function sendFriendRequest(friendId: string) {
  const answer = await api.post(
    '/api/friends/request',
    { friendId },
    {
      schema: FriendRequestResponse,
    },
  );
  void syncEngine()
    .pull('poke')
    .catch(() => {});
  return answer;
}

export async function respondToAnchor(anchor: Anchor, response: 'accept' | 'decline') {
  await localWrite({
    request: {
      method: 'PATCH',
      path: `/api/profile/anchors/${anchor.id}/respond`,
      body: { response },
    },
    effects: [{ table: 'anchors', key: anchor.id, after: answeredAnchor(anchor, response, now()) }],
    errorToast: { description: 'Failed to respond to anchor request. Please try again.' },
  });
}

export async function shareMood(o: {
  meId: string;
  friendId: string;
  mood: MoodName;
  emoji: string;
  note: string | null;
}) {
  const id = uuidv7();
  await localWrite({
    request: {
      method: 'POST',
      path: '/api/moods',
      body: { id, friendId: o.friendId, mood: o.mood, emoji: o.emoji, note: o.note },
    },
    effects: [{ table: 'moods', key: id, after: sharedMood({ ...o, id, at: now() }) }],
    errorToast: { description: 'Failed to set mood. Please try again.' },
  });
}

export async function sendSurprise(o: {
  me: UserSummary;
  friend: UserSummary;
  text: string;
  emoji: string;
}) {
  const id = uuidv7();
  await localWrite({
    request: {
      method: 'POST',
      path: '/api/pings/custom',
      body: {
        id,
        receiverId: o.friend.id,
        customText: o.text,
        customEmoji: o.emoji,
        surprise: true,
      },
    },
    effects: [
      {
        table: 'pings',
        key: id,
        after: customPing({ id, ...o, at: now() }, o.text, o.emoji, true),
      },
    ],
    errorToast: { title: 'Surprise failed', description: 'Could not send surprise ping' },
  });
}

export async function sendPromptPing(o: {
  me: UserSummary;
  friend: UserSummary;
  prompt: { id: string; text: string; emoji: string };
}) {
  const id = uuidv7();
  await localWrite({
    request: {
      method: 'POST',
      path: '/api/pings',
      body: { id, promptId: o.prompt.id, receiverId: o.friend.id },
    },
    effects: [{ table: 'pings', key: id, after: promptPing({ id, ...o, at: now() }, o.prompt) }],
    errorToast: { description: 'Failed to send ping. Please try again.' },
  });
}

export async function sendCustomPing(o: {
  me: UserSummary;
  friend: UserSummary;
  text: string;
  emoji: string;
}) {
  const id = uuidv7();
  const body: Record<string, unknown> = { id, receiverId: o.friend.id, customText: o.text };
  if (o.emoji) body.customEmoji = o.emoji;
  await localWrite({
    request: { method: 'POST', path: '/api/pings/custom', body },
    effects: [
      { table: 'pings', key: id, after: customPing({ id, ...o, at: now() }, o.text, o.emoji) },
    ],
    errorToast: CUSTOM_PING_ERROR,
  });
}
