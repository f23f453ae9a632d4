/**
 * The search box of /friends ('Find friends by name'): results as you type (300 ms pause), each
 * with 'Add Friend', 'Request Sent' or 'Already Friends'; and the search status line that
 * /friends-search shows too.
 */
import { LIMITS, displayName, type SyncFriendship } from '@pingme/shared';
import type { ReactNode } from 'react';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { FriendsSection } from './FriendsSection';
import { resolveRelation } from './relation';
import { useAddFriend } from './useAddFriend';
import { useSearchBox, type SearchState } from './useUserSearch';

export function FriendSearch({ friendships }: { friendships: readonly SyncFriendship[] }) {
  const { search, input } = useSearchBox();
  const { overrides, busy, add } = useAddFriend();
  const byUser = new Map(friendships.map((f) => [f.otherUserId, f]));

  return (
    <FriendsSection id="friend-search-title" title="Add friends" className="card friend-search">
      <div className="field">
        <label className="visually-hidden" htmlFor="friend-search-input">
          Find friends by name
        </label>
        <input
          id="friend-search-input"
          className="input fr-search-input"
          placeholder="Find friends by name"
          {...input}
          aria-describedby="friend-search-status"
        />
      </div>
      <SearchStatus id="friend-search-status" search={search}>
        {search.status === 'short' && (
          <p className="fr-muted">Type at least {LIMITS.searchMinChars} characters to search.</p>
        )}
      </SearchStatus>
      {search.status === 'done' && search.results.length > 0 && (
        <ul className="fr-people" aria-label="Search results">
          {search.results.map((r) => {
            const { relation } = resolveRelation(r, byUser.get(r.id), overrides.get(r.id));
            return (
              <li key={r.id} className="fr-person">
                <Avatar user={r} size="md" />
                <div className="fr-person__text">
                  <span className="fr-person__name">{displayName(r)}</span>
                  {r.handle && <span className="fr-person__detail">@{r.handle}</span>}
                </div>
                {relation === 'friends' ? (
                  <span className="fr-pill fr-pill--success">Already Friends</span>
                ) : relation === 'sent' ? (
                  <span className="fr-pill fr-pill--muted">Request Sent</span>
                ) : (
                  <Button size="sm" loading={busy.has(r.id)} onClick={() => void add(r)}>
                    Add Friend<span className="visually-hidden"> {displayName(r)}</span>
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </FriendsSection>
  );
}

/**
 * The live line under a people search (here and on /friends-search): searching, nothing found or
 * failed, announced as it changes. `children` adds a screen's own messages (too short to search).
 */
export function SearchStatus({
  id,
  search,
  children,
}: {
  id?: string;
  search: SearchState;
  children?: ReactNode;
}) {
  return (
    <div id={id} className="fr-search-status" role="status">
      {children}
      {search.status === 'loading' && (
        <p className="fr-muted">
          <span className="spinner" aria-hidden="true" /> Searching…
        </p>
      )}
      {search.status === 'done' && search.results.length === 0 && (
        <p className="fr-muted">No users found</p>
      )}
      {search.status === 'error' && <p className="fr-muted">Search failed. Try again.</p>}
    </div>
  );
}
