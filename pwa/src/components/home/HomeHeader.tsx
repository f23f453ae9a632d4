/**
 * Home's header: who you are, your tagline, your three counters, the tour's help button, and the
 * way to Analytics (the tour points there; nothing else on Home did). Who you are comes with the
 * session, the counters from the device's data: while a new device pulls its first snapshot
 * (HomeScreen, HomeLoading) the header is already there, its counters read '–' and the tour
 * waits for the sections it shows.
 */
import { DEFAULT_TAGLINE, displayName, type SelfUser } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { Avatar } from '../Avatar';
import { Tooltip } from '../Tooltip';
import type { HomeCounts } from './useHomeData';

export interface HomeHeaderProps {
  user: SelfUser;
  /** Absent while the device has no data yet: the counters read '–'. */
  counts?: HomeCounts;
  /** Absent while Home's sections are not there yet: the help button is disabled. */
  onHelp?: () => void;
}

export function HomeHeader({ user, counts, onHelp }: HomeHeaderProps) {
  const items = [
    { to: '/pings', n: counts?.pings, one: 'ping', many: 'pings' },
    { to: '/friends', n: counts?.friends, one: 'friend', many: 'friends' },
    { to: '/notifications', n: counts?.requests, one: 'request', many: 'requests' },
  ] as const;
  return (
    <section className="home__header card" aria-labelledby="home-name">
      <Avatar user={user} size="lg" />
      <div className="home__who">
        <h1 id="home-name" className="home__name">
          {displayName(user)}
        </h1>
        <p className="home__tagline">{user.tagline || DEFAULT_TAGLINE}</p>
      </div>
      <Tooltip content="Take the tour">
        <button
          type="button"
          className="icon-button home__help"
          onClick={onHelp}
          disabled={!onHelp}
        >
          <span aria-hidden="true">?</span>
          <span className="visually-hidden">Help: show the guided tour</span>
        </button>
      </Tooltip>
      <ul className="home__counters" aria-label="Your numbers" aria-busy={!counts || undefined}>
        {items.map((c) => (
          <li key={c.to}>
            <Link to={c.to} className="counter" data-testid={`counter-${c.many}`}>
              <strong>{c.n ?? '–'}</strong> <span>{c.n === 1 ? c.one : c.many}</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link to="/analytics" className="home__analytics">
        <span aria-hidden="true">📈</span> Friendship energy and analytics
      </Link>
    </section>
  );
}
