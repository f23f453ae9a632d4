/** The 'Friend Requests' tab of Activity and Notifications (received requests, Accept / Decline). */
import { relativeTime, type SyncFriendship } from '@pingme/shared';
import type { ReactNode } from 'react';
import { useRequestAnswers, withRecentlyAnswered } from '../friends/RequestAnswers';
import { RequestRow } from '../friends/RequestRow';

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
