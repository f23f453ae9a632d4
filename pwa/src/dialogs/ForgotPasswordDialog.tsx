/** 'Forgot your password': asks for the e-mail and sends (or, without mail, opens) a reset link. */
import { DELAYS_MS, ForgotPasswordBody, ForgotPasswordResponse } from '@pingme/shared';
import { useNavigate } from '@tanstack/react-router';
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
  const navigate = useNavigate();
  const form = useZodForm(ForgotPasswordBody, { email: '' });
  const [busy, setBusy] = useState(false);
  const [opening, setOpening] = useState(false);

  const openResetLink = (link: string) => {
    const url = new URL(link, window.location.origin);
    if (url.origin !== window.location.origin) {
      window.location.assign(url.href);
      return;
    }
    onDone();
    void navigate({ href: url.pathname + url.search });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate();
    if (!body) return;
    setBusy(true);
    try {
      const answer = await api.post('/api/forgot-password', body, {
        schema: ForgotPasswordResponse,
      });
      const { resetLink } = answer;
      if (resetLink) {
        // Spec: with a reset link in the answer, go there after 1 s.
        setOpening(true);
        setTimeout(() => openResetLink(resetLink), DELAYS_MS.forgotPasswordRedirect);
        return;
      }
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
      {opening && (
        <p className="form__status" role="status">
          Opening your reset link…
        </p>
      )}
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
