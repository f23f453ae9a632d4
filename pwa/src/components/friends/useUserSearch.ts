/**
 * People search as you type (GET /api/users/search): waits DELAYS_MS.searchDebounce (300 ms)
 * after the last keystroke, and only asks once the text has LIMITS.searchMinChars (the server's
 * minimum). A newer query cancels the older one, so results never arrive out of order.
 */
import { DELAYS_MS, LIMITS, UserSearchResults, type UserSearchResult } from '@pingme/shared';
import { useEffect, useState, type ChangeEvent } from 'react';
import { api } from '../../api';
import { toast } from '../../stores';

export type SearchState =
  | { status: 'idle' }
  | { status: 'short' }
  | { status: 'loading'; query: string }
  | { status: 'done'; query: string; results: UserSearchResult[] }
  | { status: 'error'; query: string };

/**
 * A people-search box (/friends, /friends-search): the search its text drives, and the props of
 * its input (a search field, no autofill, the text as typed).
 */
export function useSearchBox() {
  const [text, setText] = useState('');
  const search = useUserSearch(text);
  const input = {
    type: 'search',
    autoComplete: 'off',
    value: text,
    onChange: (e: ChangeEvent<HTMLInputElement>) => setText(e.target.value),
  } as const;
  return { search, input };
}

export function useUserSearch(text: string): SearchState {
  const query = text.trim();
  const [state, setState] = useState<SearchState>({ status: 'idle' });

  useEffect(() => {
    if (query.length === 0) {
      setState({ status: 'idle' });
      return;
    }
    if (query.length < LIMITS.searchMinChars) {
      setState({ status: 'short' });
      return;
    }
    setState({ status: 'loading', query });
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const results = await api.get(`/api/users/search?q=${encodeURIComponent(query)}`, {
          schema: UserSearchResults,
          signal: abort.signal,
        });
        if (!abort.signal.aborted) setState({ status: 'done', query, results });
      } catch {
        if (abort.signal.aborted) return;
        setState({ status: 'error', query });
        toast({
          title: 'Failed to search',
          description: 'Please try again or refresh the page',
          variant: 'destructive',
        });
      }
    }, DELAYS_MS.searchDebounce);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query]);

  return state;
}
