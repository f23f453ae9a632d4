/**
 * Friends (/friends, spec section 2): search to add people, received requests (Accept /
 * Decline), sent requests, and your friends with their latest mood and three quick actions
 * (surprise, mood, insights). Everything listed comes from Dexie.
 */
import { Link } from '@tanstack/react-router';
import { Suspense, lazy, useState } from 'react';
import type { SyncFriendship } from '@pingme/shared';
import { ButtonLink } from '../components/ButtonLink';
import { Screen } from '../components/Screen';
import { FriendCard, type FriendAction } from '../components/friends/FriendCard';
import { FriendPrompts } from '../components/friends/FriendPrompts';
import { FriendSearch } from '../components/friends/FriendSearch';
import { FriendsSection } from '../components/friends/FriendsSection';
import {
  RequestAnswersProvider,
  useRequestAnswers,
  withRecentlyAnswered,
} from '../components/friends/RequestAnswers';
import { InviteLinkCard } from '../components/friends/InviteLink';
import { RequestRow } from '../components/friends/RequestRow';
import { WithdrawRequestButton } from '../components/friends/WithdrawRequestButton';
import { summaryOf } from '../writes/pending';
import {
  groupFriendships,
  useFriendships,
  useLatestMoodsFromFriends,
} from '../components/friends/useFriendData';
import { FriendsIcon } from '../components/icons';
import { MoodDialog } from '../dialogs/MoodDialog';
import { SurpriseDialog } from '../dialogs/SurpriseDialog';
import { useSession } from '../stores';
import '../styles/friends.css';

const InsightsDialog = lazy(() => import('../dialogs/InsightsDialog'));

function FriendsScreen() {
  const me = useSession((s) => s.user);
  const rows = useFriendships();
  const moods = useLatestMoodsFromFriends(me?.id);
  const { answered } = useRequestAnswers();
  const [open, setOpen] = useState<{ action: FriendAction; friendship: SyncFriendship } | null>(
    null,
  );
  if (!me) return null;

  const { friends, received, sent } = groupFriendships(rows ?? []);
  const shownRequests = withRecentlyAnswered(received, answered);
  const close = (isOpen: boolean) => {
    if (!isOpen) setOpen(null);
  };
  const friend = open ? { ...summaryOf(open.friendship.other) } : null;

  return (
    <Screen
      title="Friends"
      subtitle="Your people, all in one place."
      className="friends"
      aside={
        <ButtonLink to="/friends-search" variant="secondary" size="sm">
          Find Friends
        </ButtonLink>
      }
    >
      <FriendSearch friendships={rows ?? []} />

      {shownRequests.length > 0 && (
        <FriendsSection
          id="received-title"
          title={
            <>
              Friend Requests <span className="fr-badge">{received.length}</span>
            </>
          }
          className="card"
        >
          <ul className="fr-people">
            {shownRequests.map((r) => (
              <RequestRow key={r.id} request={r} />
            ))}
          </ul>
        </FriendsSection>
      )}

      {sent.length > 0 && (
        <FriendsSection id="sent-title" title="Sent Requests" className="card">
          <ul className="fr-people">
            {sent.map((r) => (
              <RequestRow key={r.id} request={r} actions={<WithdrawRequestButton request={r} />} />
            ))}
          </ul>
        </FriendsSection>
      )}

      <FriendsSection
        id="friends-title"
        title={`Your Friends (${friends.length})`}
        className="friends__list"
      >
        {rows === undefined ? (
          <p className="fr-muted" role="status">
            <span className="spinner" aria-hidden="true" /> Loading your friends…
          </p>
        ) : friends.length === 0 ? (
          <div className="card card--muted fr-empty">
            <span className="fr-empty__icon">
              <FriendsIcon />
            </span>
            <p className="fr-empty__title">No friends yet</p>
            <p className="fr-muted">Search above or share your invite link to connect.</p>
          </div>
        ) : (
          <ul className="friend-cards">
            {friends.map((f) => (
              <FriendCard
                key={f.id}
                friendship={f}
                mood={moods.get(f.otherUserId)}
                onAction={(action, friendship) => setOpen({ action, friendship })}
              />
            ))}
          </ul>
        )}
        {friends.length > 0 && (
          <Link to="/analytics" className="friends__analytics">
            <span aria-hidden="true">📈</span> Each friendship’s energy in Analytics
          </Link>
        )}
      </FriendsSection>

      <InviteLinkCard user={me} />

      <FriendPrompts meId={me.id} />

      {friend && open?.action === 'mood' && (
        <MoodDialog open onOpenChange={close} meId={me.id} friend={friend} />
      )}
      {friend && open?.action === 'surprise' && (
        <SurpriseDialog open onOpenChange={close} me={summaryOf(me)} friend={friend} />
      )}
      {friend && open?.action === 'fr-insights' && (
        <Suspense fallback={null}>
          <InsightsDialog open onOpenChange={close} friend={friend} />
        </Suspense>
      )}
    </Screen>
  );
}

/** The screen with its request-answer state (the 3 s labels and 'Friend Added!'). */
export function FriendsRouteScreen() {
  return (
    <RequestAnswersProvider>
      <FriendsScreen />
    </RequestAnswersProvider>
  );
}
