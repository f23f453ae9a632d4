/**
 * Friend search (/friends-search, the one dark-themed screen, spec section 1): people by name or
 * e-mail from 2 characters, each with where they stand with you; received requests (Accept /
 * Decline), sent requests ('Waiting') and how many friends you have.
 */
import { LIMITS } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Screen } from '../components/Screen';
import { TextField } from '../components/TextField';
import {
  RequestAnswersProvider,
  useRequestAnswers,
  withRecentlyAnswered,
} from '../components/friends/RequestAnswers';
import { SearchStatus } from '../components/friends/FriendSearch';
import { FriendsSection } from '../components/friends/FriendsSection';
import { RequestRow } from '../components/friends/RequestRow';
import { SearchResultRow } from '../components/friends/SearchResultRow';
import { resolveRelation } from '../components/friends/relation';
import { useAddFriend } from '../components/friends/useAddFriend';
import { groupFriendships, useFriendships } from '../components/friends/useFriendData';
import { useSearchBox } from '../components/friends/useUserSearch';
import { useSession } from '../stores';
import '../styles/friends.css';

function FriendsSearchScreen() {
  useDarkTheme();
  const me = useSession((s) => s.user);
  const rows = useFriendships();
  const { search, input } = useSearchBox();
  const { overrides, busy, add } = useAddFriend();
  const { answered } = useRequestAnswers();
  if (!me) return null;

  const { friends, received, sent } = groupFriendships(rows ?? []);
  const byUser = new Map((rows ?? []).map((f) => [f.otherUserId, f]));

  return (
    <Screen
      title="Find Friends"
      subtitle="Search by name or email to connect."
      className="friends-search"
    >
      <div className="card friend-search">
        <TextField
          label="Search by name or email"
          className="friend-search__field"
          placeholder="e.g. Ada or ada@example.com"
          {...input}
          hint={`At least ${LIMITS.searchMinChars} characters`}
        />
        <SearchStatus search={search} />
        {search.status === 'done' && search.results.length > 0 && (
          <ul className="fr-people" aria-label="Search results">
            {search.results.map((r) => {
              const local = byUser.get(r.id);
              return (
                <SearchResultRow
                  key={r.id}
                  result={r}
                  local={local}
                  meId={me.id}
                  relation={resolveRelation(r, local, overrides.get(r.id))}
                  adding={busy.has(r.id)}
                  onAdd={(person) => void add(person)}
                />
              );
            })}
          </ul>
        )}
      </div>

      <p className="friends-search__count">
        <Link to="/friends">
          You have {friends.length} {friends.length === 1 ? 'friend' : 'friends'}
        </Link>
      </p>

      <FriendsSection
        id="fs-received-title"
        title={
          <>
            Friend Requests{' '}
            {received.length > 0 && <span className="fr-badge">{received.length}</span>}
          </>
        }
        className="card"
      >
        {received.length === 0 && answered.size === 0 ? (
          <p className="fr-muted">No pending requests</p>
        ) : (
          <ul className="fr-people">
            {withRecentlyAnswered(received, answered).map((r) => (
              <RequestRow key={r.id} request={r} />
            ))}
          </ul>
        )}
      </FriendsSection>

      <FriendsSection id="fs-sent-title" title="Sent Requests" className="card">
        {sent.length === 0 ? (
          <p className="fr-muted">No requests waiting for an answer</p>
        ) : (
          <ul className="fr-people">
            {sent.map((r) => (
              <RequestRow
                key={r.id}
                request={r}
                actions={<span className="fr-pill fr-pill--warning">Waiting</span>}
              />
            ))}
          </ul>
        )}
      </FriendsSection>
    </Screen>
  );
}

/** The whole page goes dark while this screen is shown. */
function useDarkTheme() {
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = 'dark';
    return () => {
      delete root.dataset.theme;
    };
  }, []);
}

/** The screen with its request-answer state (the 3 s labels and 'Friend Added!'). */
export function FriendsSearchRouteScreen() {
  return (
    <RequestAnswersProvider>
      <FriendsSearchScreen />
    </RequestAnswersProvider>
  );
}
