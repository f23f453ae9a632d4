/**
 * An anchor request to me, opened from its tile on Home: who asks, the anchor's text and emoji,
 * and 'Accept Anchor' / 'Decline' (the same write and toasts as the Activity screen's row).
 */
import { displayName, type Anchor } from '@pingme/shared';
import { useState } from 'react';
import { answerAnchor } from '../activity/AnchorRequestRow';
import { Button } from '../Button';
import { Dialog } from '../Dialog';

export interface AnchorRequestDialogProps {
  anchor: Anchor;
  open: boolean;
  onOpenChange(open: boolean): void;
}

export function AnchorRequestDialog({ anchor, open, onOpenChange }: AnchorRequestDialogProps) {
  const [busy, setBusy] = useState(false);
  const name = displayName(anchor.user);
  const answer = async (response: 'accept' | 'decline') => {
    setBusy(true);
    const done = await answerAnchor(anchor, response);
    setBusy(false);
    if (done) onOpenChange(false);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Anchor request from ${name}`}
      description={`${name} wants to create an Anchor connection: one tap pings the other.`}
    >
      <p className="anchor-request__quote">
        <span aria-hidden="true">{anchor.emoji}</span> {anchor.text}
      </p>
      <div className="dialog__actions">
        <Button variant="secondary" disabled={busy} onClick={() => void answer('decline')}>
          Decline
        </Button>
        <Button disabled={busy} onClick={() => void answer('accept')}>
          Accept Anchor
        </Button>
      </div>
    </Dialog>
  );
}
