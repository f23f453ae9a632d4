/**
 * Activity (/activity, spec section 2): 'Recent Pings' (everything that happened, filtered by
 * All / Sent / Received / Anchors, with status labels) and 'Friend Requests' (Accept / Decline),
 * with count badges. Requests are marked viewed 2 s after they are on screen.
 */

import { useMemo, useState } from 'react';
import { Screen } from '../components/Screen';
import { Tabs } from '../components/Tabs';
import { ActivityList } from '../components/activity/ActivityList';
import { AnchorsView } from '../components/activity/AnchorsView';
import { EmptyState, FeedLoading, TabLabel } from '../components/activity/EmptyState';
import { FilterChips } from '../components/activity/FilterChips';
import { FriendRequestsPanel } from '../components/activity/FriendRequestsPanel';
import {
  activityItems,
  anchorRequests,
  filterActivity,
  receivedRequests,
  type ActivityFilter,
} from '../components/activity/feed';
import { useFeedInput, useMarkRequestsViewed } from '../components/activity/useFeedData';
import { RequestAnswersProvider } from '../components/friends/RequestAnswers';
import { useSession } from '../stores';
import '../styles/activity.css';
import '../styles/friends.css';

function ActivityScreen() {
  const me = useSession((s) => s.user);
  const input = useFeedInput(me?.id);
  const [tab, setTab] = useState('pings');
  const [filter, setFilter] = useState<ActivityFilter>('all');
  const derived = useMemo(() => {
    if (!input) return undefined;
    return {
      items: activityItems(input),
      requests: receivedRequests(input.friendships),
      anchors: anchorRequests(input.anchors, input.meId),
      unread: input.pings.filter((p) => p.receiverId === input.meId && !p.isRead).length,
    };
  }, [input]);
  const shown = useMemo(
    () => (derived ? filterActivity(derived.items, filter) : []),
    [derived, filter],
  );
  useMarkRequestsViewed(derived);

  if (!input || !derived) {
    return <FeedLoading title="Activity" />;
  }

  const pings = (
    <div className="act-panel">
      <FilterChips value={filter} onChange={setFilter} />
      {filter === 'anchors' ? (
        <AnchorsView input={input} items={derived.items} />
      ) : shown.length === 0 ? (
        <EmptyState icon="📭" title="No recent activity">
          Pings you send and receive show up here.
        </EmptyState>
      ) : (
        <ActivityList key={filter} items={shown} now={input.now} />
      )}
    </div>
  );

  return (
    <Screen title="Activity" className="activity-screen">
      <Tabs
        label="Activity"
        value={tab}
        onValueChange={setTab}
        items={[
          {
            value: 'pings',
            label: <TabLabel label="Recent Pings" count={derived.unread} />,
            content: pings,
          },
          {
            value: 'requests',
            label: <TabLabel label="Friend Requests" count={derived.requests.length} />,
            content: (
              <FriendRequestsPanel
                requests={derived.requests}
                now={input.now}
                empty={
                  <EmptyState icon="👋" title="No pending requests">
                    New friend requests will appear here.
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
export function ActivityRouteScreen() {
  return (
    <RequestAnswersProvider>
      <ActivityScreen />
    </RequestAnswersProvider>
  );
}
