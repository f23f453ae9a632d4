/** The Reset password screen (/reset-password; routes/reset-password.tsx loads it). */
import { DELAYS_MS, ResetPasswordResponse } from '@pingme/shared';
import { useNavigate, getRouteApi } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ApiError, api } from '../api';
import { Button } from '../components/Button';
import { ButtonLink } from '../components/ButtonLink';
import { StatusCard } from '../components/StatusCard';
import { TextField } from '../components/TextField';
import { NewPasswordField } from '../components/form/AccountFields';
import { useFormSubmit } from '../components/form/useFormSubmit';
import { useZodForm } from '../hooks/useZodForm';
import { NewPasswordForm } from '../validation';

/** This screen's route (routes/), read without importing it: the route file loads this screen. */
const route = getRouteApi('/reset-password');

function InvalidResetLink() {
  return (
    <StatusCard
      tone="error"
      title="Invalid Reset Link"
      actions={<ButtonLink to="/auth">Return to Login</ButtonLink>}
    >
      <p>This password reset link is invalid or has expired</p>
    </StatusCard>
  );
}

export function ResetPasswordScreen() {
  const { token, welcome } = route.useSearch();
  const navigate = useNavigate();
  const [linkDead, setLinkDead] = useState(false);
  const [done, setDone] = useState<{ isFirstTime: boolean } | null>(null);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(
      () =>
        void navigate({
          to: '/auth',
          search: done.isFirstTime ? { welcome: 'true' } : {},
          replace: true,
        }),
      DELAYS_MS.resetRedirect,
    );
    return () => clearTimeout(timer);
  }, [done, navigate]);

  if (!token || linkDead) return <InvalidResetLink />;

  if (done) {
    return (
      <StatusCard tone="success" title="Password Updated!">
        <p>Your new password is set. Taking you to sign in…</p>
      </StatusCard>
    );
  }

  const isWelcome = welcome !== undefined;
  return (
    <div className="narrow">
      <div className="card">
        <h1 className="card__title">{isWelcome ? 'Set Your Password' : 'Create New Password'}</h1>
        <p className="card__lead">
          {isWelcome
            ? 'Welcome to PingMe! Choose a password to finish setting up your account.'
            : 'Choose a new password for your PingMe account.'}
        </p>
        <ResetPasswordForm token={token} onDone={setDone} onLinkDead={() => setLinkDead(true)} />
      </div>
    </div>
  );
}

/** The new password twice; a refused token (invalid, expired) turns the screen to the dead link. */
function ResetPasswordForm({
  token,
  onDone,
  onLinkDead,
}: {
  token: string;
  onDone(done: { isFirstTime: boolean }): void;
  onLinkDead(): void;
}) {
  const form = useZodForm(NewPasswordForm, { password: '', confirm: '' });
  const { busy, onSubmit } = useFormSubmit(
    form,
    'Reset failed',
    async (values) => {
      const answer = await api.post(
        '/api/reset-password',
        { token, password: values.password },
        { schema: ResetPasswordResponse },
      );
      onDone({ isFirstTime: answer.isFirstTime });
    },
    (err) => {
      if (err instanceof ApiError && (err.code === 'token_invalid' || err.code === 'token_expired'))
        onLinkDead();
    },
  );

  return (
    <form ref={form.formRef} className="form" onSubmit={onSubmit} noValidate>
      <NewPasswordField {...form.field('password')} />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        {...form.field('confirm')}
      />
      <Button type="submit" size="lg" block loading={busy}>
        Update Password
      </Button>
    </form>
  );
}
