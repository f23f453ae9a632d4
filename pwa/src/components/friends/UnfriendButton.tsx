/**
 * 'Unfriend' on a friend's page: asks first (saying what ends and what stays), then friend.remove
 * through the outbox and back to /friends.
 */
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from '../../stores';
import { removeFriend } from '../../writes/friends';
import { Button } from '../Button';
import { ConfirmDialog } from '../form/ConfirmDialog';

export function UnfriendButton({ friendId, name }: { friendId: string; name: string }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const onConfirm = async () => {
    setBusy(true);
    try {
      await removeFriend(friendId);
    } catch {
      setBusy(false);
      toast({
        title: 'Error',
        description: 'Failed to remove friend. Please try again.',
        variant: 'destructive',
      });
      return;
    }
    toast({ title: `You and ${name} are no longer friends`, variant: 'success' });
    setOpen(false);
    await navigate({ to: '/friends' });
  };

  return (
    <>
      <Button size="sm" variant="ghost" className="sf-danger-text" onClick={() => setOpen(true)}>
        Unfriend
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        busy={busy}
        title={`Unfriend ${name}?`}
        description="You stop being friends: your anchors with them end and prompts you assigned each other are unassigned. The pings you exchanged stay. You can ask them again later."
        confirmLabel="Unfriend"
        onConfirm={() => void onConfirm()}
      />
    </>
  );
}
