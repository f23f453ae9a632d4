/** One result of /friends-search: 'Friends', 'Pending', Accept / Decline, or Add. */
import { displayName, type SyncFriendship, type UserSearchResult } from '@pingme/shared';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { RequestActions } from './RequestRow';
import type { ResolvedRelation } from './relation';

export interface SearchResultRowProps {
  result: UserSearchResult;
  relation: ResolvedRelation;
  /** The device's friendship row with this person, when there is one. */
  local: SyncFriendship | undefined;
  meId: string;
  adding: boolean;
  onAdd(result: UserSearchResult): void;
}

/** A received request as a friendship row, for a result the pull has not brought yet. */
function requestFromResult(result: UserSearchResult, requestId: string, meId: string) {
  return {
    id: requestId,
    status: 'pending',
    direction: 'received',
    requesterId: result.id,
    addresseeId: meId,
    otherUserId: result.id,
    createdAt: new Date().toISOString(),
    acceptedAt: null,
    other: {
      id: result.id,
      firstName: result.firstName,
      lastName: result.lastName,
      profileImageUrl: result.profileImageUrl,
      handle: result.handle,
      tagline: result.tagline,
    },
  } satisfies SyncFriendship;
}

export function SearchResultRow({
  result,
  relation,
  local,
  meId,
  adding,
  onAdd,
}: SearchResultRowProps) {
  const name = displayName(result);
  let action;
  if (relation.relation === 'friends') {
    action = <span className="fr-pill fr-pill--success">Friends</span>;
  } else if (relation.relation === 'sent') {
    action = <span className="fr-pill fr-pill--warning">Pending</span>;
  } else if (relation.relation === 'received' && relation.requestId) {
    action = (
      <RequestActions request={local ?? requestFromResult(result, relation.requestId, meId)} />
    );
  } else {
    action = (
      <Button size="sm" loading={adding} onClick={() => onAdd(result)}>
        Add<span className="visually-hidden"> {name}</span>
      </Button>
    );
  }
  return (
    <li className="fr-person">
      <Avatar user={result} size="md" />
      <div className="fr-person__text">
        <span className="fr-person__name">{name}</span>
        <span className="fr-person__detail">
          {result.handle ? `@${result.handle}` : (result.tagline ?? '')}
        </span>
      </div>
      {action}
    </li>
  );
}
