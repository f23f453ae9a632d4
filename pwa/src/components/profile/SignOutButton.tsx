/**
 * Sign Out. Signing out clears this device's data, outbox included (docs/pwa.md), so when writes
 * are still waiting to be sent the person is asked first instead of losing them silently.
 */
import { useNavigate } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { db } from '../../db';
import { signOut } from '../../session';
import { Button } from '../Button';
import { Dialog, DialogClose } from '../Dialog';

export function SignOutButton({ block = true }: { block?: boolean }) {
  const navigate = useNavigate();
  const waiting = useLiveQuery(() => db.outbox.count(), [], 0);
  const [leaving, setLeaving] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const leave = async () => {
    setConfirming(false);
    setLeaving(true);
    await signOut(() => navigate({ to: '/', replace: true }));
  };

  return (
    <>
      <Button
        variant="danger"
        block={block}
        loading={leaving}
        onClick={() => (waiting > 0 ? setConfirming(true) : void leave())}
      >
        Sign Out
      </Button>
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Sign out with unsent changes?"
        description={
          waiting === 1
            ? '1 change has not reached the server yet. Signing out now discards it.'
            : `${waiting} changes have not reached the server yet. Signing out now discards them.`
        }
      >
        <div className="dialog__actions">
          <DialogClose asChild>
            <Button variant="secondary">Stay signed in</Button>
          </DialogClose>
          <Button variant="danger" onClick={() => void leave()}>
            Sign out anyway
          </Button>
        </div>
      </Dialog>
    </>
  );
}
