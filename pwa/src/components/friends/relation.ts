/**
 * Where a search result stands with me. The device's friendships (Dexie) are the freshest
 * truth; a choice just made on this screen comes next (the pull has not brought it yet); the
 * server's answer to the search comes last.
 */
import type { SyncFriendship, UserSearchResult } from '@pingme/shared';

export type SearchRelation = 'friends' | 'sent' | 'received' | 'none';

export interface ResolvedRelation {
  relation: SearchRelation;
  /** The pending request between us, when there is one. */
  requestId: string | null;
}

export function resolveRelation(
  result: Pick<UserSearchResult, 'relation' | 'requestId'>,
  local: SyncFriendship | undefined,
  override: SearchRelation | undefined,
): ResolvedRelation {
  if (local) {
    if (local.status === 'accepted') return { relation: 'friends', requestId: null };
    return { relation: local.direction, requestId: local.id };
  }
  if (override) return { relation: override, requestId: null };
  switch (result.relation) {
    case 'friends':
      return { relation: 'friends', requestId: null };
    case 'request_sent':
      return { relation: 'sent', requestId: result.requestId };
    case 'request_received':
      return { relation: 'received', requestId: result.requestId };
    default:
      return { relation: 'none', requestId: null };
  }
}
