/** Live reads of the device database for the ping components (filled by the sync engine). */
import type { Prompt, SyncUser } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db';
import { latestPings } from '../../db/queries';
import type { LocalPing } from '../../writes/pings';

export type Friend = Extract<SyncUser, { relation: 'friend' }>;

const byName = (a: Friend, b: Friend) =>
  (a.firstName ?? a.email ?? '').localeCompare(b.firstName ?? b.email ?? '', undefined, {
    sensitivity: 'base',
  });

/** Accepted friends, by first name. */
export function useFriendList(): Friend[] | undefined {
  return useLiveQuery(async () => {
    const rows = (await db.users.where('relation').equals('friend').toArray()) as Friend[];
    return rows.sort(byName);
  }, []);
}

/** The default prompts in display order (their fixed ids sort that way), at most `limit`. */
export function useHomePrompts(limit: number): Prompt[] | undefined {
  return useLiveQuery(async () => {
    // Booleans are not IndexedDB keys, so isDefault cannot be queried by index.
    const defaults = (await db.prompts.toArray()).filter((p) => p.isDefault);
    return defaults.sort((a, b) => a.id.localeCompare(b.id)).slice(0, limit);
  }, [limit]);
}

/** The newest pings the person sent or received (db/queries.ts: the createdAt index, no full read). */
export function useLatestPings(limit: number): LocalPing[] | undefined {
  return useLiveQuery(async () => (await latestPings(limit)) as LocalPing[], [limit]);
}

/** The person's current record of someone (fresher photo and name than a ping's copy). */
export function usePerson(id: string | undefined) {
  return useLiveQuery(async () => (id ? db.users.get(id) : undefined), [id]);
}
