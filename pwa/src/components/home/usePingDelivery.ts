/** Whether a ping this screen just wrote is still waiting for the server ('sending') or has landed. */
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db';
import { PENDING_FIELD } from '../../sync/local-write';

export type Delivery = 'sending' | 'sent' | 'gone' | null;

export function usePingDelivery(pingId: string | null): Delivery {
  return (
    useLiveQuery(async () => {
      if (!pingId) return null;
      const row = (await db.pings.get(pingId)) as Record<string, unknown> | undefined;
      if (!row) return 'gone';
      return row[PENDING_FIELD] ? 'sending' : 'sent';
    }, [pingId]) ?? null
  );
}
