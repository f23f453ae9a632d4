/**
 * Delete account (DELETE /api/account): a dialog that says what goes, asks for the password (or
 * for typing DELETE when the account has none: Google sign-in), then clears this device and
 * goes to / signed out.
 */
import { DELETE_CONFIRMATION, DeleteAccountResponse, type SelfUser } from '@pingme/shared';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { errorMessage, request } from '../../api';
import { signOut } from '../../session';
import { toast } from '../../stores';
import { Button } from '../Button';
import { Dialog, DialogActions } from '../Dialog';
import { TextField } from '../TextField';

export function DeleteAccount({ me }: { me: SelfUser }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  const withPassword = me.hasPassword;

  const onOpenChange = (o: boolean) => {
    if (deleting) return;
    setOpen(o);
    setValue('');
    setError(undefined);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (withPassword && !value) return setError('Enter your password to delete your account');
    if (!withPassword && value.trim() !== DELETE_CONFIRMATION) {
      return setError(`Type ${DELETE_CONFIRMATION} to confirm`);
    }
    setError(undefined);
    setDeleting(true);
    try {
      await request('DELETE', '/api/account', {
        body: withPassword ? { password: value } : { confirm: DELETE_CONFIRMATION },
        schema: DeleteAccountResponse,
        on401: 'throw',
      });
    } catch (err) {
      setDeleting(false);
      setError(errorMessage(err));
      return;
    }
    await signOut(() => navigate({ to: '/', replace: true }));
    toast({ title: 'Your account was deleted', description: 'Goodbye from PingMe.' });
  };

  return (
    <>
      <Button variant="danger" block onClick={() => setOpen(true)}>
        Delete account
      </Button>
      <Dialog
        open={open}
        onOpenChange={onOpenChange}
        title="Delete your account?"
        description="This cannot be undone. Your profile, friendships, pings, anchors, moods, moments and photo are deleted, and every device is signed out."
      >
        <form className="sf-form" onSubmit={(e) => void onSubmit(e)} noValidate>
          <TextField
            label={withPassword ? 'Your password' : `Type ${DELETE_CONFIRMATION} to confirm`}
            type={withPassword ? 'password' : 'text'}
            autoComplete={withPassword ? 'current-password' : 'off'}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={error}
          />
          <DialogActions type="submit" variant="danger" loading={deleting}>
            Delete my account
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
