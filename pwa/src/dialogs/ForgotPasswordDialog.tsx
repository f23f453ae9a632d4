/**
 * 'Forgot your password': asks for the e-mail; the server mails the link (or, without mail, prints
 * it for its operator) and answers the same whether the account exists or not.
 */
import { ForgotPasswordBody, ForgotPasswordResponse } from '@pingme/shared';
import { api } from '../api';
import { Dialog, DialogActions } from '../components/Dialog';
import { EmailField } from '../components/form/AccountFields';
import { useFormSubmit } from '../components/form/useFormSubmit';
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
  const { busy, onSubmit } = useFormSubmit(form, 'Error', async (body) => {
    const answer = await api.post('/api/forgot-password', body, {
      schema: ForgotPasswordResponse,
    });
    toast({ title: 'Check your email', description: answer.message });
    onDone();
  });

  return (
    <form ref={form.formRef} className="form" onSubmit={onSubmit} noValidate>
      <EmailField {...form.field('email')} />
      <DialogActions type="submit" loading={busy}>
        Send Reset Link
      </DialogActions>
    </form>
  );
}
