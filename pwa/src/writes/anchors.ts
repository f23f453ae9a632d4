/**
 * Anchors (spec sections 2, 4 and 5): asking a friend for one (the anchor dialog) and answering a
 * request (Activity), through the outbox with the anchor's pending row. Asking someone who already
 * asked you accepts their request instead, on the device as on the server.
 */
import type { Anchor, SelfUser } from '@pingme/shared';
import { PENDING_FIELD, localWrite } from '../sync/local-write';
import type { Pending } from './pending';

export const ANCHOR_ERROR_TOAST = 'Failed to create anchor ping. Please try again.';
export const ANCHOR_RESPOND_ERROR = 'Failed to respond to anchor request. Please try again.';

type AnchorPerson = Anchor['user'];
type Person = Omit<AnchorPerson, 'email'> & { email?: string | null };

const anchorPerson = (u: Person): AnchorPerson => ({
  id: u.id,
  firstName: u.firstName,
  lastName: u.lastName,
  profileImageUrl: u.profileImageUrl,
  email: u.email ?? null,
});

/** What asking for an anchor says (CreateAnchorBody, parsed by the form). */
export interface AnchorRequest {
  id: string;
  friendId: string;
  text: string;
  emoji: string;
  color: string;
  label?: string;
}

/** THE pending row of an anchor the person asked for. */
export function pendingAnchor(me: Person, friend: Person, a: AnchorRequest, at: string) {
  return {
    id: a.id,
    userId: me.id,
    friendId: friend.id,
    user: anchorPerson(me),
    friend: anchorPerson(friend),
    label: a.label || null,
    text: a.text,
    emoji: a.emoji,
    color: a.color,
    status: 'pending',
    createdAt: at,
    respondedAt: null,
    [PENDING_FIELD]: true,
  } satisfies Pending<Anchor>;
}

/** THE pending row of an answered request. */
export function answeredAnchor(
  anchor: Anchor,
  response: 'accept' | 'decline',
  at: string,
): Pending<Anchor> {
  return {
    ...anchor,
    status: response === 'accept' ? 'accepted' : 'declined',
    respondedAt: at,
    [PENDING_FIELD]: true,
  };
}

/**
 * Asks `friend` for an anchor; when they already asked (`incoming`, their pending request), their
 * request shows accepted instead (the server accepts it and answers under its id).
 */
export async function createAnchor(o: {
  me: SelfUser;
  friend: Person;
  request: AnchorRequest;
  incoming?: Anchor;
}): Promise<void> {
  const at = new Date().toISOString();
  const { incoming, request } = o;
  await localWrite({
    mutation: 'anchor.create',
    args: request,
    effects: [
      {
        table: 'anchors',
        key: incoming?.id ?? request.id,
        after: incoming
          ? answeredAnchor(incoming, 'accept', at)
          : pendingAnchor(o.me, o.friend, request, at),
      },
    ],
    // Spec section 8: the server's message is used when present.
    errorToast: { description: ANCHOR_ERROR_TOAST, preferServerMessage: true },
  });
}

export async function respondToAnchor(anchor: Anchor, response: 'accept' | 'decline') {
  await localWrite({
    mutation: 'anchor.respond',
    args: { id: anchor.id, response },
    effects: [
      {
        table: 'anchors',
        key: anchor.id,
        after: answeredAnchor(anchor, response, new Date().toISOString()),
      },
    ],
    errorToast: { description: ANCHOR_RESPOND_ERROR },
  });
}
