/**
 * The 'Friend Requests' tab of Activity and Notifications (received requests, Accept / Decline),
 * and the two screens' frame: their own feed tab, then that one, each with its count badge.
 */
import { relativeTime, type SyncFriendship } from '@pingme/shared';
import { useState, type ReactNode } from 'react';
import { Screen } from '../Screen';
import { Tabs } from '../Tabs';
import { useRequestAnswers, withRecentlyAnswered } from '../friends/RequestAnswers';
import { RequestRow } from '../friends/RequestRow';
import { TabLabel } from './EmptyState';

export function FriendRequestsPanel({
  requests,
  now,
  empty,
}: {
  requests: readonly SyncFriendship[];
  now: number;
  empty: ReactNode;
}) {
  const { answered } = useRequestAnswers();
  const shown = withRecentlyAnswered(requests, answered);
  if (shown.length === 0) return <>{empty}</>;
  return (
    <ul className="fr-people act-requests" aria-label="Friend requests">
      {shown.map((r) => (
        <RequestRow
          key={r.id}
          request={r}
          detail={`wants to be your friend · ${relativeTime(r.createdAt, now, 'notification')}`}
        />
      ))}
    </ul>
  );
}

export interface FeedTabsScreenProps {
  /** The screen's title, also the tab list's name. */
  title: string;
  /** The screen's own tab, shown first. */
  feed: { value: string; label: string; count: number; content: ReactNode };
  requests: readonly SyncFriendship[];
  now: number;
  /** What the 'Friend Requests' tab shows when there is none. */
  noRequests: ReactNode;
}

export function FeedTabsScreen({ title, feed, requests, now, noRequests }: FeedTabsScreenProps) {
  const [tab, setTab] = useState(feed.value);
  return (
    <Screen title={title} className="activity-screen">
      <Tabs
        label={title}
        value={tab}
        onValueChange={setTab}
        items={[
          {
            value: feed.value,
            label: <TabLabel label={feed.label} count={feed.count} />,
            content: feed.content,
          },
          {
            value: 'requests',
            label: <TabLabel label="Friend Requests" count={requests.length} />,
            content: <FriendRequestsPanel requests={requests} now={now} empty={noRequests} />,
          },
        ]}
      />
    </Screen>
  );
}
