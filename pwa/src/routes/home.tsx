/**
 * Home (/ when signed in), minimal for now: who you are, your counters (from Dexie, filled by
 * the sync engine) and a way to bring friends in. Prompts, anchors and activity come later.
 */
import { DEFAULT_TAGLINE, displayName } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { Avatar } from '../components/Avatar';
import { Button, buttonClass } from '../components/Button';
import { FriendsIcon } from '../components/icons';
import { db } from '../db';
import { toast, useSession } from '../stores';

export function HomeScreen() {
  const user = useSession((s) => s.user);
  const counts = useLiveQuery(
    async () => ({
      pings: await db.pings.count(),
      friends: await db.friendships
        .where('[status+direction]')
        .anyOf([
          ['accepted', 'sent'],
          ['accepted', 'received'],
        ])
        .count(),
      requests: await db.friendships
        .where('[status+direction]')
        .equals(['pending', 'received'])
        .count(),
    }),
    [],
    { pings: 0, friends: 0, requests: 0 },
  );
  if (!user) return null;
  const inviteUrl = `${window.location.origin}/invite/${user.inviteCode}`;

  const copyInvite = async () => {
    try {
      await navigator.clipboard.writeText(inviteUrl);
      toast({ title: 'Invite link copied', description: 'Send it to a friend to connect.' });
    } catch {
      toast({ title: 'Could not copy', description: inviteUrl });
    }
  };

  return (
    <div className="screen home">
      <section className="home__header card" aria-labelledby="home-name">
        <Avatar user={user} size="lg" />
        <div className="home__who">
          <h1 id="home-name" className="home__name">
            {displayName(user)}
          </h1>
          <p className="home__tagline">{user.tagline || DEFAULT_TAGLINE}</p>
        </div>
        <ul className="home__counters" aria-label="Your numbers">
          <li>
            <Link to="/pings" className="counter">
              <strong>{counts.pings}</strong> <span>pings</span>
            </Link>
          </li>
          <li>
            <Link to="/friends" className="counter">
              <strong>{counts.friends}</strong> <span>friends</span>
            </Link>
          </li>
          <li>
            <Link to="/notifications" className="counter">
              <strong>{counts.requests}</strong> <span>requests</span>
            </Link>
          </li>
        </ul>
      </section>

      {counts.friends === 0 && (
        <section className="card connect-card" aria-labelledby="connect-title">
          <span className="connect-card__icon">
            <FriendsIcon />
          </span>
          <h2 id="connect-title">Connect with Friends</h2>
          <p>Pings are for your people. Find friends on PingMe or send them your invite link.</p>
          <div className="connect-card__actions">
            <Link to="/friends-search" className={buttonClass('primary')}>
              Find Friends
            </Link>
            <Button variant="secondary" onClick={copyInvite}>
              Copy invite link
            </Button>
          </div>
        </section>
      )}
    </div>
  );
}
