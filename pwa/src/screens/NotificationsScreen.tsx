/**
 * Notifications (/notifications, spec section 2): 'All Activity' (anchor requests to answer,
 * then friend requests, anchor activity and the 5 latest pings, newest first) and 'Friend
 * Requests', with count badges. Requests are marked viewed 2 s after they are on screen.
 */

import { useMemo, useState } from 'react';
import { Screen } from '../components/Screen';
import { Tabs } from '../components/Tabs';
import { AnchorRequestRow } from '../components/activity/AnchorRequestRow';
import { EmptyState, FeedLoading, TabLabel } from '../components/activity/EmptyState';
import { FriendRequestsPanel } from '../components/activity/FriendRequestsPanel';
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
  const [tab, setTab] = useState('all');
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
    return <FeedLoading title="Notifications" />;
  }
  const { items, anchors, requests } = derived;
  const allCount = items.length + anchors.length;

  const all = (
    <div className="act-panel">
      {anchors.length > 0 && (
        <section aria-labelledby="notif-anchor-requests">
          <h2 id="notif-anchor-requests" className="fr-section-title">
            Anchor Requests <span className="fr-badge">{anchors.length}</span>
          </h2>
          <ul className="act-list">
            {anchors.map((a) => (
              <AnchorRequestRow key={a.id} anchor={a} now={input.now} />
            ))}
          </ul>
        </section>
      )}
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
    <Screen title="Notifications" className="activity-screen">
      <Tabs
        label="Notifications"
        value={tab}
        onValueChange={setTab}
        items={[
          { value: 'all', label: <TabLabel label="All Activity" count={allCount} />, content: all },
          {
            value: 'requests',
            label: <TabLabel label="Friend Requests" count={requests.length} />,
            content: (
              <FriendRequestsPanel
                requests={requests}
                now={input.now}
                empty={
                  <EmptyState icon="👋" title="No notifications yet">
                    You'll see friend requests here
                  </EmptyState>
                }
              />
            ),
          },
        ]}
      />
    </Screen>
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
