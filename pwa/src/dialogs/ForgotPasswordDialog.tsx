/**
 * 'Forgot your password': asks for the e-mail; the server mails the link (or, without mail, prints
 * it for its operator) and answers the same whether the account exists or not.
 */
import { ForgotPasswordBody, ForgotPasswordResponse } from '@pingme/shared';
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '../api';
import { Button } from '../components/Button';
import { Dialog, DialogClose } from '../components/Dialog';
import { TextField } from '../components/TextField';
import { useZodForm } from '../hooks/useZodForm';
import { toast } from '../stores';

export interface ForgotPasswordDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
}

export function ForgotPasswordDialog({ open, onOpenChange }: ForgotPasswordDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Reset your password"
      description="Enter the email you signed up with and we’ll send you a link to set a new password."
    >
      {/* Mounted only while open, so every opening starts with an empty form. */}
      <ForgotPasswordForm onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function ForgotPasswordForm({ onDone }: { onDone(): void }) {
  const form = useZodForm(ForgotPasswordBody, { email: '' });
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate();
    if (!body) return;
    setBusy(true);
    try {
      const answer = await api.post('/api/forgot-password', body, {
        schema: ForgotPasswordResponse,
      });
      toast({ title: 'Check your email', description: answer.message });
      onDone();
    } catch (err) {
      toast({ title: 'Error', description: errorMessage(err), variant: 'destructive' });
      setBusy(false);
    }
  };

  return (
    <form ref={form.formRef} className="form" onSubmit={onSubmit} noValidate>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        {...form.field('email')}
      />
      <div className="dialog__actions">
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" loading={busy}>
          Send Reset Link
        </Button>
      </div>
    </form>
  );
}
