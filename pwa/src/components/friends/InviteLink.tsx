/**
 * The person's invite link, always at hand (on /friends and the own profile; Home's empty state
 * too): shown in full (cut with an ellipsis, the whole link in its label) with one button that
 * opens the system share sheet where the browser has one (Web Share API) and copies otherwise.
 * A private profile is found only through this link, so it never goes away after the first friend.
 */
import type { SelfUser } from '@pingme/shared';
import { toast } from '../../stores';
import { Button } from '../Button';
import '../../styles/invite-link.css';

export function inviteUrlOf(user: Pick<SelfUser, 'inviteCode'>): string {
  return `${window.location.origin}/invite/${user.inviteCode}`;
}

function canShare(url: string): boolean {
  return (
    typeof navigator.share === 'function' &&
    (typeof navigator.canShare !== 'function' || navigator.canShare({ url }))
  );
}

/** Shares the link (system sheet), or copies it; says which with a toast. */
export async function shareInvite(url: string): Promise<void> {
  if (canShare(url)) {
    try {
      await navigator.share({ title: 'PingMe', text: 'Add me on PingMe', url });
      return;
    } catch (err) {
      // Closing the share sheet is a choice, not a failure.
      if (err instanceof DOMException && err.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Invite link copied', description: 'Send it to a friend to connect.' });
  } catch {
    toast({ title: 'Could not copy', description: url });
  }
}

export function InviteLinkButton(props: {
  user: Pick<SelfUser, 'inviteCode'>;
  variant?: 'primary' | 'secondary';
}) {
  const url = inviteUrlOf(props.user);
  return (
    <Button variant={props.variant ?? 'secondary'} size="sm" onClick={() => void shareInvite(url)}>
      {canShare(url) ? 'Share invite link' : 'Copy invite link'}
    </Button>
  );
}

/** A card with the link and its button. */
export function InviteLinkCard({ user }: { user: Pick<SelfUser, 'inviteCode'> }) {
  const url = inviteUrlOf(user);
  return (
    <section className="card invite-link" aria-labelledby="invite-link-title">
      <h2 id="invite-link-title" className="card__title card__title--sm">
        Your invite link
      </h2>
      <p className="invite-link__hint">
        Anyone with this link can ask to be your friend, even while your profile is private.
      </p>
      <div className="invite-link__row">
        {/* Cut on screen; the whole link is the element's text and its tooltip. */}
        <code className="invite-link__url" title={url}>
          {url}
        </code>
        <InviteLinkButton user={user} />
      </div>
    </section>
  );
}
