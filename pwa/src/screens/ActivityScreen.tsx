/**
 * Activity (/activity, spec section 2): 'Recent Pings' (everything that happened, filtered by
 * All / Sent / Received / Anchors, with status labels) and 'Friend Requests' (Accept / Decline),
 * with count badges. Requests are marked viewed 2 s after they are on screen.
 */

import { useMemo, useState } from 'react';
import { ScreenLoading } from '../components/common/ScreenLoading';
import { ActivityList } from '../components/activity/ActivityList';
import { AnchorsView } from '../components/activity/AnchorsView';
import { EmptyState } from '../components/activity/FeedParts';
import { FilterChips } from '../components/activity/FilterChips';
import { FeedTabsScreen } from '../components/activity/FeedTabsScreen';
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
    return <ScreenLoading title="Activity" />;
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
    <FeedTabsScreen
      title="Activity"
      feed={{ value: 'pings', label: 'Recent Pings', count: derived.unread, content: pings }}
      requests={derived.requests}
      now={input.now}
      noRequests={
        <EmptyState icon="👋" title="No pending requests">
          New friend requests will appear here.
        </EmptyState>
      }
    />
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
