import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../db';
import { selectOnline, useConnectivity } from '../stores';
import { cx } from './cx';

/** Online/offline, and how many writes wait in the outbox (ARCHITECTURE.md: always shown). */
export function SyncStatus() {
  const online = useConnectivity(selectOnline);
  const waiting = useLiveQuery(() => db.outbox.count(), [], 0);
  return (
    <div
      className={cx('sync-status', online ? 'sync-status--online' : 'sync-status--offline')}
      role="status"
      data-testid="sync-status"
    >
      <span className="sync-status__dot" aria-hidden="true" />
      <span>{online ? 'Online' : 'Offline'}</span>
      {waiting > 0 && <span className="sync-status__waiting">{waiting} waiting to send</span>}
    </div>
  );
}
