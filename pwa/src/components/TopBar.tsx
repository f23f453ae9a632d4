import { Link } from '@tanstack/react-router';
import { SyncStatus } from './SyncStatus';

/** The logo (to /) and the sync status, on every screen. */
export function TopBar() {
  return (
    <header className="top-bar">
      <Link to="/" className="brand" aria-label="PingMe home">
        <img src="/icon.svg" alt="" width="32" height="32" className="brand__mark" />
        <span className="brand__name" aria-hidden="true">
          PingMe
        </span>
      </Link>
      <SyncStatus />
    </header>
  );
}
