/**
 * Notifications (/notifications, spec section 2): 'All Activity' (anchor requests to answer,
 * then friend requests, anchor activity and the 5 latest pings, newest first) and 'Friend
 * Requests', with count badges. Requests are marked viewed 2 s after they are on screen.
 */

import { useMemo } from 'react';
import { ScreenLoading } from '../components/common/ScreenLoading';
import { AnchorRequestsSection } from '../components/activity/AnchorRequestRow';
import { EmptyState } from '../components/activity/FeedParts';
import { FeedTabsScreen } from '../components/activity/FeedTabsScreen';
import { NotificationList } from '../components/activity/NotificationList';
import { anchorRequests, notificationFeed, receivedRequests } from '../components/activity/feed';
import { useFeedInput, useMarkRequestsViewed } from '../components/activity/useFeedData';
import { RequestAnswersProvider } from '../components/friends/RequestAnswers';
import { useSession } from '../stores';
import '../styles/activity.css';
import '../styles/friends.css';

function NotificationsScreen() {
  const me = useSession((s) => s.user);
  const input = useFeedInput(me?.id);
  const derived = useMemo(() => {
    if (!input) return undefined;
    return {
      items: notificationFeed(input).filter((i) => i.kind !== 'anchor_request'),
      anchors: anchorRequests(input.anchors, input.meId),
      requests: receivedRequests(input.friendships),
    };
  }, [input]);
  useMarkRequestsViewed(derived);

  if (!input || !derived) {
    return <ScreenLoading title="Notifications" />;
  }
  const { items, anchors, requests } = derived;
  const allCount = items.length + anchors.length;

  const all = (
    <div className="act-panel">
      <AnchorRequestsSection titleId="notif-anchor-requests" anchors={anchors} now={input.now} />
      {items.length > 0 ? (
        <NotificationList items={items} now={input.now} />
      ) : (
        anchors.length === 0 && (
          <EmptyState icon="🔔" title="No notifications yet">
            You'll see activity from your friends here
          </EmptyState>
        )
      )}
    </div>
  );

  return (
    <FeedTabsScreen
      title="Notifications"
      feed={{ value: 'all', label: 'All Activity', count: allCount, content: all }}
      requests={requests}
      now={input.now}
      noRequests={
        <EmptyState icon="👋" title="No notifications yet">
          You'll see friend requests here
        </EmptyState>
      }
    />
  );
}

/** The screen with its request-answer state (the 3 s labels and 'Friend Added!'). */
export function NotificationsRouteScreen() {
  return (
    <RequestAnswersProvider>
      <NotificationsScreen />
    </RequestAnswersProvider>
  );
}
