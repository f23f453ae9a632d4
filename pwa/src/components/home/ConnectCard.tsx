/** The empty state of Home without friends: find people, or send the invite link. */
import type { SelfUser } from '@pingme/shared';
import { ButtonLink } from '../ButtonLink';
import { InviteLinkButton } from '../friends/InviteLink';
import { FriendsIcon } from '../icons';

export function ConnectCard({ user }: { user: SelfUser }) {
  return (
    <section className="card connect-card" aria-labelledby="connect-title">
      <span className="connect-card__icon">
        <FriendsIcon />
      </span>
      <h2 id="connect-title">Connect with Friends</h2>
      <p>Pings are for your people. Find friends on PingMe or send them your invite link.</p>
      <div className="connect-card__actions">
        <ButtonLink to="/friends-search">Find Friends</ButtonLink>
        <InviteLinkButton user={user} />
      </div>
    </section>
  );
}
