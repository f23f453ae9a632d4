import { Link, useRouterState } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import type { ComponentType, SVGProps } from 'react';
import { db } from '../db';
import { unreadReceivedCount } from '../db/queries';
import { activityBadgeText, unreadBadgeText } from '../notifications/badges';
import {
  anchorRequestNotificationId,
  countUnseen,
  friendRequestNotificationId,
  useViewedNotifications,
} from '../notifications/viewed';
import { useSession } from '../stores';
import { ActivityIcon, FriendsIcon, HomeIcon, PingIcon, ProfileIcon } from './icons';
import '../styles/home.css';

type Badge = 'unread' | 'requests' | null;

const ITEMS: {
  to: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  badge: Badge;
}[] = [
  { to: '/', label: 'Home', icon: HomeIcon, badge: null },
  { to: '/pings', label: 'Pings', icon: PingIcon, badge: 'unread' },
  { to: '/activity', label: 'Activity', icon: ActivityIcon, badge: 'requests' },
  { to: '/friends', label: 'Friends', icon: FriendsIcon, badge: null },
  { to: '/profile', label: 'Profile', icon: ProfileIcon, badge: null },
];

/**
 * What the badges count, from Dexie (kept current by the sync engine instead of the spec's
 * polling): received unread pings, and the ids of received pending friend and anchor requests.
 */
function useBadgeSources(meId: string | undefined) {
  return useLiveQuery(
    async () => {
      if (!meId) return { unread: 0, requestIds: [] as string[] };
      const [unread, friendRequests, anchorRequests] = await Promise.all([
        // Two index counts: no received ping is read into memory (db/queries.ts).
        unreadReceivedCount(meId),
        db.friendships.where('[status+direction]').equals(['pending', 'received']).primaryKeys(),
        db.anchors
          .where('friendId')
          .equals(meId)
          .filter((a) => a.status === 'pending')
          .primaryKeys(),
      ]);
      return {
        unread,
        requestIds: [
          ...friendRequests.map((id) => friendRequestNotificationId(String(id))),
          ...anchorRequests.map((id) => anchorRequestNotificationId(String(id))),
        ],
      };
    },
    [meId],
    { unread: 0, requestIds: [] as string[] },
  );
}

/**
 * The global bottom navigation of signed-in screens (spec section 2, "Global navigation"). The
 * Pings item leads to the Library, or to the inbox while it counts unread pings (and while the
 * inbox is open), so the badge leads to what it counts (docs/decisions.md).
 */
export function BottomNav() {
  const meId = useSession((s) => s.user?.id);
  const { unread, requestIds } = useBadgeSources(meId);
  const onInbox = useRouterState({ select: (s) => s.location.pathname === '/inbox' });
  const pingsTo = unread > 0 || onInbox ? '/inbox' : '/pings';
  const viewed = useViewedNotifications();
  const unseen = countUnseen(requestIds, viewed);
  const badges: Record<Exclude<Badge, null>, { text: string | null; label: string }> = {
    unread: { text: unreadBadgeText(unread), label: `${unread} unread` },
    requests: { text: activityBadgeText(unseen), label: `${unseen} new requests` },
  };

  return (
    <nav className="bottom-nav" aria-label="Main">
      <ul>
        {ITEMS.map(({ to, label, icon: Icon, badge }) => {
          const b = badge ? badges[badge] : null;
          return (
            <li key={to}>
              <Link
                to={to === '/pings' ? pingsTo : to}
                className="bottom-nav__link"
                activeOptions={{ exact: to === '/' }}
                activeProps={{ 'aria-current': 'page', className: 'is-active' }}
              >
                <span className="bottom-nav__icon-wrap">
                  <Icon className="bottom-nav__icon" />
                  {b?.text && (
                    <span className="nav-badge" data-testid={`nav-badge-${label.toLowerCase()}`}>
                      <span aria-hidden="true">{b.text}</span>
                    </span>
                  )}
                </span>
                <span>{label}</span>
                {b?.text && <span className="visually-hidden">, {b.label}</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
