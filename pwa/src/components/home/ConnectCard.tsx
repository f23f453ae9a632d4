/** The empty state of Home without friends: find people, or send the invite link. */
import type { SelfUser } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { toast } from '../../stores';
import { Button, buttonClass } from '../Button';
import { FriendsIcon } from '../icons';

export function ConnectCard({ user }: { user: SelfUser }) {
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
  );
}
