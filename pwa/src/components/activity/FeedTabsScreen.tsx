/**
 * The frame of Activity and Notifications: the screen's own feed tab, then 'Friend Requests',
 * each with its count badge.
 */
import type { SyncFriendship } from '@pingme/shared';
import type { ReactNode } from 'react';
import { Screen } from '../Screen';
import { Tabs } from '../Tabs';
import { TabLabel } from './FeedParts';
import { FriendRequestsPanel } from './FriendRequestsPanel';

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
  return (
    <Screen title={title} className="activity-screen">
      <Tabs
        label={title}
        defaultValue={feed.value}
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
