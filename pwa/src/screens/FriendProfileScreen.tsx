/**
 * Friend profile (/friend/{friendId}, spec section 2): who they are (Dexie), your stats together
 * (GET /api/friends/{id}/stats), the 5 latest pings between you, and 'Send a Ping'.
 */
import { LIMITS, displayName } from '@pingme/shared';
import { Link, useParams } from '@tanstack/react-router';
import { Avatar } from '../components/Avatar';
import { ButtonLink } from '../components/ButtonLink';
import { Screen } from '../components/Screen';
import { ScreenLoading } from '../components/common/ScreenLoading';
import { BackIcon, SendIcon } from '../components/icons';
import {
  useFriend,
  useFriendStats,
  usePingsWith,
  type FriendProfile,
  type StatsState,
} from '../components/friends/useFriendProfile';
import { PingCard } from '../components/pings/PingCard';
import { PersonSafetyActions } from '../components/safety/PersonSafetyActions';
import { UnfriendButton } from '../components/friends/UnfriendButton';
import { FriendsSection } from '../components/friends/FriendsSection';
import { useSession } from '../stores';
import '../styles/friends.css';
import '../styles/pings.css';

const backLink = (
  <Link to="/friends" className="fr-back">
    <BackIcon /> Friends
  </Link>
);

export function FriendScreen() {
  const { friendId } = useParams({ from: '/friend/$friendId' });
  const friend = useFriend(friendId);
  const stats = useFriendStats(friendId);

  if (friend === undefined || (friend === null && stats.kind === 'loading')) {
    return <ScreenLoading title="Friend" />;
  }
  if (friend === null) {
    // A friend the server knows but this device has not pulled yet: wait for the pull.
    const syncing = stats.kind === 'ready';
    return (
      <Screen title="Friend" aside={backLink}>
        <div className="card card--muted fr-empty" role={syncing ? 'status' : undefined}>
          <p className="fr-empty__title">{syncing ? 'Loading your friend…' : 'Friend not found'}</p>
          {!syncing && (
            <>
              <p className="fr-muted">They may not be your friend (yet).</p>
              <ButtonLink to="/friends" variant="secondary" size="sm">
                Back to Friends
              </ButtonLink>
            </>
          )}
        </div>
      </Screen>
    );
  }
  return <FriendProfileView friend={friend} stats={stats} />;
}

function FriendProfileView({ friend, stats }: { friend: FriendProfile; stats: StatsState }) {
  const me = useSession((s) => s.user);
  const pings = usePingsWith(me?.id, friend.id, LIMITS.friendProfileRecentPings);
  const name = displayName(friend);

  return (
    <Screen title={name} className="friend-profile" aside={backLink}>
      <section className="card friend-profile__card" aria-label="About">
        <Avatar user={friend} size="xl" />
        {friend.handle && <p className="friend-profile__handle">@{friend.handle}</p>}
        {(friend.status || friend.tagline) && (
          <p className="friend-profile__tagline">{friend.status || friend.tagline}</p>
        )}
        {friend.friendsSince && (
          <p className="fr-muted friend-profile__since">
            Friends since{' '}
            {new Date(friend.friendsSince).toLocaleDateString(undefined, {
              year: 'numeric',
              month: 'long',
              day: 'numeric',
            })}
          </p>
        )}
        <StatsRow stats={stats} />
        <ButtonLink to="/ping-friend/$friendId" params={{ friendId: friend.id }} size="lg" block>
          <SendIcon /> Send a Ping
        </ButtonLink>
        <div className="friend-profile__leave">
          <UnfriendButton friendId={friend.id} name={name} />
          <PersonSafetyActions userId={friend.id} name={name} />
        </div>
      </section>

      <FriendsSection
        id="recent-pings-title"
        title="Recent pings"
        className="friend-profile__pings"
      >
        {pings === undefined ? null : pings.length === 0 ? (
          <div className="card card--muted fr-empty">
            <span className="fr-empty__icon" aria-hidden="true">
              💭
            </span>
            <p className="fr-empty__title">No pings yet</p>
            <p className="fr-muted">Send {friend.firstName || name} the first one.</p>
          </div>
        ) : (
          <ul className="friend-profile__list">
            {pings.map((p) => (
              <li key={p.id}>
                <PingCard ping={p} />
              </li>
            ))}
          </ul>
        )}
      </FriendsSection>
    </Screen>
  );
}

function StatsRow({ stats }: { stats: StatsState }) {
  const value = (n: number | undefined) => (n === undefined ? '–' : String(n));
  const s = stats.kind === 'ready' ? stats.stats : undefined;
  return (
    <div className="friend-profile__stats-wrap">
      <dl className="friend-profile__stats" aria-busy={stats.kind === 'loading'}>
        <div>
          <dt>Pings</dt>
          <dd>{value(s?.totalPings)}</dd>
        </div>
        <div>
          <dt>Reactions</dt>
          <dd>{value(s?.totalReactions)}</dd>
        </div>
        <div>
          <dt>Days connected</dt>
          <dd>{value(s?.daysConnected)}</dd>
        </div>
      </dl>
      {stats.kind === 'ready' && stats.cachedAt && (
        <p className="fr-muted friend-profile__cached">
          Offline: stats from {new Date(stats.cachedAt).toLocaleString()}
        </p>
      )}
      {stats.kind === 'unavailable' && (
        <p className="fr-muted friend-profile__cached">Stats show when you are back online.</p>
      )}
    </div>
  );
}
