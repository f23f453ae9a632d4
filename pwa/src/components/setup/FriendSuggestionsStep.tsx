/**
 * Setup step 4: up to 5 people the person may know (GET /api/users/suggestions), each with
 * 'Add' (friend.request). Both are server answers the setup waits for, so they go to the server
 * directly rather than through the outbox.
 */
import { LIMITS, SuggestionResults, displayName, type SuggestionResult } from '@pingme/shared';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api';
import { toast } from '../../stores';
import { sendFriendRequest } from '../../writes/friends';
import { Avatar } from '../Avatar';
import { Button } from '../Button';

type Load =
  { state: 'loading' } | { state: 'error' } | { state: 'done'; people: SuggestionResult[] };
type Added = Record<string, 'sending' | 'requested' | 'friends'>;

export function FriendSuggestionsStep() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [added, setAdded] = useState<Added>({});

  const fetchSuggestions = useCallback(async (signal?: AbortSignal) => {
    setLoad({ state: 'loading' });
    try {
      const people = await api.get('/api/users/suggestions', {
        schema: SuggestionResults,
        signal,
      });
      setLoad({ state: 'done', people: people.slice(0, LIMITS.setupFriendSuggestions) });
    } catch {
      if (!signal?.aborted) setLoad({ state: 'error' });
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void fetchSuggestions(controller.signal);
    return () => controller.abort();
  }, [fetchSuggestions]);

  const add = async (person: SuggestionResult) => {
    setAdded((a) => ({ ...a, [person.id]: 'sending' }));
    try {
      const res = await sendFriendRequest(person.id);
      setAdded((a) => ({ ...a, [person.id]: res.status === 'accepted' ? 'friends' : 'requested' }));
    } catch {
      setAdded(({ [person.id]: _, ...rest }) => rest);
      toast({
        title: 'Error',
        description: 'Failed to send friend request',
        variant: 'destructive',
      });
    }
  };

  if (load.state === 'loading')
    return (
      <p className="setup-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Finding people you may know…
      </p>
    );
  if (load.state === 'error')
    return (
      <div className="setup-empty" role="status">
        <p>We couldn’t load suggestions right now.</p>
        <Button variant="secondary" size="sm" onClick={() => void fetchSuggestions()}>
          Try again
        </Button>
      </div>
    );
  if (load.people.length === 0)
    return (
      <div className="setup-empty" role="status">
        <p>No suggestions yet. You can find friends or share your invite link from Home.</p>
      </div>
    );

  return (
    <ul className="suggestion-list">
      {load.people.map((person) => {
        const name = displayName(person);
        const state = added[person.id];
        return (
          <li key={person.id} className="suggestion">
            <Avatar user={person} size="md" />
            <div className="suggestion__who">
              <span className="suggestion__name">{name}</span>
              <span className="suggestion__meta">
                {person.handle ? `@${person.handle}` : (person.tagline ?? 'On PingMe')}
                {person.mutualFriends > 0 &&
                  ` · ${person.mutualFriends} mutual ${person.mutualFriends === 1 ? 'friend' : 'friends'}`}
              </span>
            </div>
            {state === 'requested' || state === 'friends' ? (
              <span className="suggestion__done" role="status">
                {state === 'friends' ? 'Friends' : 'Request Sent'}
              </span>
            ) : (
              <Button
                size="sm"
                loading={state === 'sending'}
                aria-label={`Add ${name}`}
                onClick={() => void add(person)}
              >
                Add
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
