/** The count badges of the global navigation (spec section 2, "Global navigation"). */
import { BADGE_CAPS, capBadge } from '@pingme/shared';

/** The Pings badge: unread received pings, '99+' above 99; null hides it. */
export function unreadBadgeText(unread: number): string | null {
  return unread > 0 ? capBadge(unread, BADGE_CAPS.unread) : null;
}

/** The Activity badge: unseen friend and anchor requests; null hides it. */
export function activityBadgeText(unseen: number): string | null {
  return unseen > 0 ? capBadge(unseen, BADGE_CAPS.unread) : null;
}

/** The friend-requests banner's count badge: '9+' above 9. */
export function friendRequestsBadgeText(count: number): string {
  return capBadge(count, BADGE_CAPS.friendRequests);
}

/** 'You have N friend requests!' (one request reads 'request'). */
export function friendRequestsBannerText(count: number): string {
  return `You have ${count} friend ${count === 1 ? 'request' : 'requests'}!`;
}
