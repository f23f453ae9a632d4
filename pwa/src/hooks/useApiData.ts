/**
 * A server-computed answer a screen shows while online (not in the change feed, so not in Dexie):
 * loaded once on mount, with the loading and error states and a `reload` for 'Try again'.
 */
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api';

export type ApiData<T> =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; data: T };

/** `fetch` must be stable (a module-level function): a new one loads again. */
export function useApiData<T>(fetch: () => Promise<T>): {
  state: ApiData<T>;
  reload: () => Promise<void>;
  /** Changes the loaded answer in place (e.g. drops a row the person just resolved). */
  update: (change: (data: T) => T) => void;
} {
  const [state, setState] = useState<ApiData<T>>({ kind: 'loading' });
  const reload = useCallback(async () => {
    try {
      setState({ kind: 'ready', data: await fetch() });
    } catch (err) {
      setState({ kind: 'error', message: errorMessage(err) });
    }
  }, [fetch]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const update = useCallback(
    (change: (data: T) => T) =>
      setState((s) => (s.kind === 'ready' ? { kind: 'ready', data: change(s.data) } : s)),
    [],
  );
  return { state, reload, update };
}
