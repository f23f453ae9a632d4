/**
 * 'Friend Added!' (spec section 4): shown after accepting a friend request. 'Set Anchor Ping'
 * opens the anchor dialog for that friend; 'Skip for now' closes.
 */
import { useState } from 'react';
import { Button } from '../components/Button';
import { Dialog, DialogClose } from '../components/Dialog';
import { AnchorDialog } from './AnchorDialog';

export interface FriendAddedDialogProps {
  /** The new friend, or null when closed. */
  friend: { id: string; name: string } | null;
  onClose(): void;
}

export function FriendAddedDialog({ friend, onClose }: FriendAddedDialogProps) {
  const [anchorFor, setAnchorFor] = useState<string | null>(null);
  return (
    <>
      <Dialog
        open={friend !== null}
        onOpenChange={(open) => {
          if (!open) onClose();
        }}
        title="Friend Added!"
        description={friend ? `You're now friends with ${friend.name}!` : undefined}
      >
        <div className="friend-added">
          <span className="friend-added__icon" aria-hidden="true">
            🎉
          </span>
          <p className="fr-muted">Pin an anchor ping so you can reach each other in one tap.</p>
          <div className="dialog__actions">
            <DialogClose asChild>
              <Button variant="secondary">Skip for now</Button>
            </DialogClose>
            <Button
              onClick={() => {
                if (!friend) return;
                setAnchorFor(friend.id);
                onClose();
              }}
            >
              Set Anchor Ping
            </Button>
          </div>
        </div>
      </Dialog>
      <AnchorDialog
        open={anchorFor !== null}
        onOpenChange={(open) => {
          if (!open) setAnchorFor(null);
        }}
        friendId={anchorFor ?? undefined}
      />
    </>
  );
}
