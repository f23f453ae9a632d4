/** 'Quick Ping Friends': one tap on a friend opens the send flow for them (/ping-friend/{id}). */
import { displayName } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { Avatar } from '../Avatar';
import { HomeSection } from './HomeSection';
import type { FriendRow } from './useHomeData';

export function QuickPingFriends({ friends }: { friends: readonly FriendRow[] }) {
  return (
    <HomeSection
      id="quick-ping-title"
      title="Quick Ping Friends"
      aside={
        <Link to="/friends" className="home-section__link">
          Manage
        </Link>
      }
    >
      {/* data-scroll-x: a strip that scrolls sideways on purpose (e2e/support/layout.ts). */}
      <ul className="friend-strip" data-scroll-x="">
        {friends.map((f) => {
          const short = f.firstName || displayName(f);
          const rest = f.firstName && f.lastName ? ` ${f.lastName}` : '';
          return (
            <li key={f.id} className="friend-strip__item">
              <span aria-hidden="true">
                <Avatar user={f} size="lg" />
              </span>
              {/* The link covers the whole tile (::after); its name is 'Ping {full name}'. */}
              <Link
                to="/ping-friend/$friendId"
                params={{ friendId: f.id }}
                className="friend-strip__name stretched-link"
                title={`Ping ${displayName(f)}`}
              >
                <span className="visually-hidden">Ping </span>
                {short}
                <span className="visually-hidden">{rest}</span>
              </Link>
            </li>
          );
        })}
        <li>
          <Link
            to="/friends-search"
            className="friend-strip__item friend-strip__find-link"
            aria-label="Find friends"
          >
            <span className="friend-strip__find" aria-hidden="true">
              +
            </span>
            <span className="friend-strip__name" aria-hidden="true">
              Find
            </span>
          </Link>
        </li>
      </ul>
    </HomeSection>
  );
}
