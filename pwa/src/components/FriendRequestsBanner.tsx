/**
 * The top banner 'You have N friend requests!' with View (to /friends) and Dismiss (spec section
 * 2, "Global navigation"); its count badge reads '9+' above 9. Counts received pending requests
 * from Dexie, so it follows the sync engine rather than polling. Dismissing hides it for the
 * requests on screen; a new request brings it back.
 */
import { useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import { friendRequestsBadgeText, friendRequestsBannerText } from '../notifications/badges';
import { Button } from './Button';
import { ButtonLink } from './ButtonLink';
import { primeFirstSyncState, useFirstSyncState } from './home/useFirstSync';
import { FriendsIcon } from './icons';
import '../styles/home.css';
import '../styles/first-sync.css';

const DISMISSED_KEY = 'friendRequestsBannerDismissed';

function readDismissed(): string[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Where the banner would only repeat what the screen shows. */
const QUIET_PATHS = ['/friends'];

/**
 * Read by the root's loader before a signed-in render: a banner that is already due is then in
 * the first frame, instead of appearing a moment later above the screen and pushing it down
 * (a layout shift Lighthouse counts against Home). The requests come from the first-sync state
 * Home shares; on a new device, before its first sync has finished, from `beforeFirstPull`, what
 * the server answered while the chunks loaded.
 */
export async function primeFriendRequests(beforeFirstPull?: string[]): Promise<void> {
  await primeFirstSyncState(beforeFirstPull);
}

const NONE: string[] = [];

export function FriendRequestsBanner() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const ids = useFirstSyncState()?.requestIds ?? NONE;
  const [dismissed, setDismissed] = useState<string[]>(readDismissed);

  const fresh = ids.filter((id) => !dismissed.includes(id));
  if (fresh.length === 0 || QUIET_PATHS.includes(pathname)) return null;

  const dismiss = () => {
    setDismissed(ids);
    try {
      sessionStorage.setItem(DISMISSED_KEY, JSON.stringify(ids));
    } catch {
      // private mode: dismissed for this page only
    }
  };

  return (
    <aside className="requests-banner" aria-label="Friend requests">
      <span className="requests-banner__icon" aria-hidden="true">
        <FriendsIcon />
        <span className="requests-banner__badge" data-testid="requests-badge">
          {friendRequestsBadgeText(ids.length)}
        </span>
      </span>
      <p className="requests-banner__text">{friendRequestsBannerText(ids.length)}</p>
      <div className="requests-banner__actions">
        <ButtonLink to="/friends" size="sm">
          View
        </ButtonLink>
        <Button variant="ghost" size="sm" onClick={dismiss}>
          Dismiss
        </Button>
      </div>
    </aside>
  );
}
