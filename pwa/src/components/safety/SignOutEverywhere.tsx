/**
 * 'Sign out everywhere' (POST /api/logout-everywhere): after a confirmation, waiting writes are
 * sent first (flushBeforeSignOut), then every session ends and this device signs out to /.
 */
import { LogoutEverywhereResponse } from '@pingme/shared';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../../api';
import { signOut } from '../../session';
import { flushBeforeSignOut } from '../../sync/sign-out';
import { Button } from '../Button';
import { ConfirmDialog } from '../form/ConfirmDialog';

export function SignOutEverywhere() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);

  const onConfirm = async () => {
    setLeaving(true);
    await flushBeforeSignOut();
    try {
      await api.post('/api/logout-everywhere', undefined, {
        schema: LogoutEverywhereResponse,
        on401: 'throw',
      });
    } catch (err) {
      console.warn('logout-everywhere failed; signing out this device', err);
    }
    // The server already ended this session; signOut's own call then just clears this device.
    await signOut(() => navigate({ to: '/', replace: true }));
  };

  return (
    <>
      <Button variant="secondary" block onClick={() => setOpen(true)}>
        Sign out everywhere
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        busy={leaving}
        title="Sign out everywhere?"
        description="Every device signed in to your account, this one included, will be signed out."
        confirmLabel="Sign out everywhere"
        onConfirm={() => void onConfirm()}
      />
    </>
  );
}
