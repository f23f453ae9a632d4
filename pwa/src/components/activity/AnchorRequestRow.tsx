/**
 * A pending anchor request to me: '{name} wants to create an Anchor connection', its text and
 * emoji, and 'Accept Anchor' / 'Decline' (PATCH /api/profile/anchors/{id}/respond, outbox); and
 * the section of such requests that Activity and Notifications show.
 */
import { displayName, type Anchor } from '@pingme/shared';
import { useState } from 'react';
import { toast } from '../../stores';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { FriendsSection } from '../friends/FriendsSection';
import { respondToAnchor } from '../../writes/anchors';
import { ItemTime } from './FeedParts';

/** Accepts or declines with the spec's toasts; answers whether the write was queued. */
export async function answerAnchor(
  anchor: Anchor,
  response: 'accept' | 'decline',
): Promise<boolean> {
  const name = displayName(anchor.user);
  try {
    await respondToAnchor(anchor, response);
  } catch {
    toast({
      title: 'Error',
      description: 'Failed to respond to anchor request. Please try again.',
      variant: 'destructive',
    });
    return false;
  }
  if (response === 'accept') {
    toast({
      title: 'Anchor Accepted!',
      description: `You and ${name} now have a mutual anchor ping.`,
      variant: 'success',
    });
  } else {
    toast({ title: 'Anchor declined' });
  }
  return true;
}

export function AnchorRequestRow({ anchor, now }: { anchor: Anchor; now: number }) {
  const [busy, setBusy] = useState(false);
  const name = displayName(anchor.user);

  const answer = async (response: 'accept' | 'decline') => {
    setBusy(true);
    if (!(await answerAnchor(anchor, response))) setBusy(false);
  };

  return (
    <li className="act-item act-item--anchor">
      <Avatar user={anchor.user} size="md" />
      <div className="act-item__body">
        <p className="act-item__text">
          <strong>{name}</strong> wants to create an Anchor connection
        </p>
        <p className="act-anchor-quote">
          <span aria-hidden="true">{anchor.emoji}</span> {anchor.text}
        </p>
        <div className="act-item__actions">
          <Button size="sm" disabled={busy} onClick={() => void answer('accept')}>
            Accept Anchor<span className="visually-hidden"> from {name}</span>
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => void answer('decline')}
          >
            Decline<span className="visually-hidden"> anchor from {name}</span>
          </Button>
        </div>
      </div>
      <ItemTime at={anchor.createdAt} now={now} />
    </li>
  );
}

/** The anchor requests waiting for my answer, under a heading with their count (none: nothing). */
export function AnchorRequestsSection({
  titleId,
  anchors,
  now,
}: {
  titleId: string;
  anchors: readonly Anchor[];
  now: number;
}) {
  if (anchors.length === 0) return null;
  return (
    <FriendsSection
      id={titleId}
      title={
        <>
          Anchor Requests <span className="fr-badge">{anchors.length}</span>
        </>
      }
    >
      <ul className="act-list">
        {anchors.map((a) => (
          <AnchorRequestRow key={a.id} anchor={a} now={now} />
        ))}
      </ul>
    </FriendsSection>
  );
}
