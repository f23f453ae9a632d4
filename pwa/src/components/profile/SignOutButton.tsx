/**
 * Sign Out. Signing out clears this device's data, outbox included (docs/pwa.md), so waiting
 * writes are sent first (flushBeforeSignOut); only when some still wait is the person asked.
 */
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { signOut } from '../../session';
import { flushBeforeSignOut, unsentChangesMessage } from '../../sync/sign-out';
import { Button } from '../Button';
import { ConfirmDialog } from '../form/ConfirmDialog';

export function SignOutButton({ block = true }: { block?: boolean }) {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const [unsent, setUnsent] = useState(0);

  const leave = async () => {
    setUnsent(0);
    setLeaving(true);
    await signOut(() => navigate({ to: '/', replace: true }));
  };

  const onClick = async () => {
    setLeaving(true);
    const waiting = await flushBeforeSignOut();
    if (waiting === 0) return leave();
    setLeaving(false);
    setUnsent(waiting);
  };

  return (
    <>
      <Button variant="danger" block={block} loading={leaving} onClick={() => void onClick()}>
        Sign Out
      </Button>
      <ConfirmDialog
        open={unsent > 0}
        onOpenChange={(open) => !open && setUnsent(0)}
        title="Sign out?"
        description={`${unsentChangesMessage(unsent)} Signing out removes them from this device.`}
        cancelLabel="Stay signed in"
        confirmLabel="Sign out anyway"
        onConfirm={() => void leave()}
      />
    </>
  );
}
