/**
 * 'Withdraw' on a sent friend request that is not answered yet (friend.decline by the sender).
 * It replaces the 'Request Sent' label: the section's title says as much, and a phone-width row
 * has room for one button beside the name.
 */
import { displayName, type SyncFriendship } from '@pingme/shared';
import { useState } from 'react';
import { toast } from '../../stores';
import { withdrawFriendRequest } from '../../writes/friends';
import { Button } from '../Button';

export function WithdrawRequestButton({ request }: { request: SyncFriendship }) {
  const [busy, setBusy] = useState(false);
  const name = displayName(request.other);
  const withdraw = async () => {
    setBusy(true);
    try {
      await withdrawFriendRequest(request);
      toast({ title: 'Request withdrawn', description: `${name} will not see it any more.` });
    } catch {
      setBusy(false);
      toast({
        title: 'Error',
        description: 'Failed to withdraw friend request',
        variant: 'destructive',
      });
    }
  };
  return (
    <div className="fr-actions">
      <Button size="sm" variant="secondary" loading={busy} onClick={() => void withdraw()}>
        Withdraw<span className="visually-hidden"> request to {name}</span>
      </Button>
    </div>
  );
}
