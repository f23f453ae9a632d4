/**
 * Home (/ when signed in), spec section 2: the header with your counters and the help button,
 * Surprise Me, the Anchor Pings strip, Quick Ping Friends, Your Pings, the 'Connect with Friends'
 * card without friends, Recent Activity, the floating button to friend search and the guided
 * tour. Everything reads from Dexie (filled by the sync engine); sends go through the outbox.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { memo } from 'react';
import { AnchorStrip as AnchorStripSection } from '../components/home/AnchorStrip';
import { ConnectCard } from '../components/home/ConnectCard';
import { FindFriendsFab } from '../components/home/FindFriendsFab';
import { HomeHeader } from '../components/home/HomeHeader';
import { HomeLoading } from '../components/home/HomeLoading';
import { QuickPingFriends as QuickPingFriendsSection } from '../components/home/QuickPingFriends';
import { SurpriseMe as SurpriseMeSection } from '../components/home/SurpriseMe';
import {
  useDefaultPrompts,
  useFriends,
  useHomeCounts,
  useStripAnchors,
} from '../components/home/useHomeData';
import { useAwaitingFirstSync } from '../components/home/useFirstSync';
import { GuidedTour } from '../components/tour/GuidedTour';
import { NotificationsToggle as NotificationsToggleSection } from '../components/pings/NotificationsToggle';
import { RecentActivity as RecentActivitySection } from '../components/pings/RecentActivity';
import { YourPings as YourPingsSection } from '../components/pings/YourPings';
import { useGuidedTour } from '../components/tour/useGuidedTour';
import { db } from '../db';
import { activeAnchors } from '../dialogs/anchor-templates';
import { useSession } from '../stores';
import '../styles/home.css';

/*
 * Home's sections re-render only when their own props change: a new ping changes the counters
 * (HomeScreen's state), and without memo every section (50 friends' tiles, the send dialog's
 * list) rendered again before the new card could show (docs/performance.md, "Device"). Each
 * section reads its own live queries, so it still updates when its data does.
 */
const SurpriseMe = memo(SurpriseMeSection);
const AnchorStrip = memo(AnchorStripSection);
const QuickPingFriends = memo(QuickPingFriendsSection);
const YourPings = memo(YourPingsSection);
const RecentActivity = memo(RecentActivitySection);
const NotificationsToggle = memo(NotificationsToggleSection);
const NONE: never[] = [];

export function HomeScreen() {
  const user = useSession((s) => s.user);
  const meId = user?.id ?? '';
  const counts = useHomeCounts();
  const friends = useFriends();
  const defaultPrompts = useDefaultPrompts();
  const stripAnchors = useStripAnchors(meId);
  const activeCount = useLiveQuery(
    async () => activeAnchors(await db.anchors.toArray(), meId).length,
    [meId],
    0,
  );
  const tour = useGuidedTour();
  const awaitingFirstSync = useAwaitingFirstSync();
  if (!user || awaitingFirstSync === undefined) return null;
  if (awaitingFirstSync || friends === undefined || stripAnchors === undefined) {
    // Who you are is known with the session: the header is on screen from the first frame, and
    // stays the same element when the sections arrive below it, so nothing on screen moves. A new
    // device shows a polite loading state under it until its first snapshot has landed; a device
    // with data waits a moment for the sections' own reads, so none appears above another later.
    return (
      <div className="screen home">
        <HomeHeader user={user} />
        {awaitingFirstSync && <HomeLoading />}
      </div>
    );
  }
  const hasFriends = (friends?.length ?? counts.friends) > 0;

  return (
    <div className="screen home">
      <HomeHeader user={user} counts={counts} onHelp={tour.reopen} />

      <SurpriseMe me={user} friends={friends ?? NONE} prompts={defaultPrompts ?? NONE} />

      {(hasFriends || activeCount > 0) && (
        <AnchorStrip me={user} anchors={stripAnchors ?? NONE} activeCount={activeCount} />
      )}

      {hasFriends && <QuickPingFriends friends={friends ?? NONE} />}

      <YourPings />

      {!hasFriends && <ConnectCard user={user} />}

      <RecentActivity />

      <NotificationsToggle offer />

      {hasFriends && <FindFriendsFab />}

      {tour.open && (
        <GuidedTour
          key={tour.reopened ? 'again' : 'first'}
          startStep={tour.startStep}
          onAdvance={tour.advance}
          onFinish={tour.finish}
        />
      )}
    </div>
  );
}
