import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useRef, useState } from 'react';
import { db } from '../db';
import { selectOnline, useConnectivity, useRealtime, useSession } from '../stores';
import { getSyncMeta } from '../sync/meta';
import { cx } from './cx';
import '../styles/sync.css';

/**
 * Online/offline, the live connection and how many writes wait in the outbox (the design asks
 * for it always shown). Pressing it shows the details: what waits, why it waits, what came from the
 * server that the app could not read (shared schemas), whether the last pull failed with the
 * server reachable (it is tried again, SyncHost), and whether the browser may clear the offline
 * data.
 */
export function SyncStatus() {
  const online = useConnectivity(selectOnline);
  const live = useRealtime((s) => s.connected);
  const unreadable = useRealtime((s) => s.unreadable.frames + s.unreadable.answers);
  const pullFailed = useRealtime((s) => s.pullFailed);
  const signedIn = useSession((s) => s.status === 'signed-in');
  const waiting = useLiveQuery(() => db.outbox.count(), [], 0);
  const head = useLiveQuery(() => db.outbox.orderBy('seq').first(), []);
  const persisted = useLiveQuery(() => getSyncMeta('storagePersisted'), []);
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="sync-status-wrap" ref={root} data-testid="sync-status">
      <button
        type="button"
        className={cx(
          'sync-status',
          online ? 'sync-status--online' : 'sync-status--offline',
          online && signedIn && live && 'sync-status--live',
        )}
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="sync-status__dot" aria-hidden="true" />
        <span role="status">
          <span>{online ? 'Online' : 'Offline'}</span>
          {waiting > 0 && (
            <span className="sync-status__waiting">
              <span className="visually-hidden">, </span>
              {waiting} waiting to send
            </span>
          )}
        </span>
        <span className="visually-hidden"> (sync details)</span>
      </button>
      {open && (
        <div id={detailsId} className="sync-details" role="region" aria-label="Sync details">
          <p>
            <strong>{online ? 'Online' : 'Offline'}</strong>
            {' · '}
            {signedIn ? (live ? 'Live updates on' : 'Live updates reconnecting…') : 'Signed out'}
          </p>
          <p data-testid="sync-waiting">
            {waiting === 0
              ? 'Everything you did has reached the server.'
              : `${waiting} ${waiting === 1 ? 'change is' : 'changes are'} waiting to send. They go out by themselves when the connection allows.`}
          </p>
          {head?.lastError && head.attempts > 0 && (
            <p className="sync-details__muted">Last attempt: {describeError(head.lastError)}</p>
          )}
          {unreadable > 0 && (
            <p className="sync-details__muted" data-testid="sync-unreadable">
              {unreadable === 1
                ? '1 message from the server could not be read; the next sync brings what it said.'
                : `${unreadable} messages from the server could not be read; the next sync brings what they said.`}
            </p>
          )}
          {pullFailed && (
            <p className="sync-details__muted" data-testid="sync-pull-failed">
              The latest changes could not be fetched from the server; trying again shortly.
            </p>
          )}
          {persisted === false && (
            <p className="sync-details__warning" data-testid="sync-storage-warning">
              This browser may clear offline data when it runs low on space. Install the app or
              bookmark it to keep it.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** The oldest waiting entry's last error, in words a person can use. */
function describeError(error: string): string {
  if (/^(0: |Network error)/.test(error)) return 'the server could not be reached.';
  const status = Number(error.slice(0, 3));
  if (status === 429) return 'the server asked to slow down; trying again shortly.';
  if (status >= 500) return 'the server had a problem; trying again shortly.';
  return error;
}
