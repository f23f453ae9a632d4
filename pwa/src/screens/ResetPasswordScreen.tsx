/** The Reset password screen (/reset-password; routes/reset-password.tsx loads it). */
import { DELAYS_MS, ResetPasswordResponse } from '@pingme/shared';
import { Link, useNavigate, getRouteApi } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, api, errorMessage } from '../api';
import { Button, buttonClass } from '../components/Button';
import { StatusCard } from '../components/StatusCard';
import { TextField } from '../components/TextField';
import { AlertIcon, CheckIcon } from '../components/icons';
import { useZodForm } from '../hooks/useZodForm';
import { toast } from '../stores';
import { NewPasswordForm } from '../validation';

/** This screen's route (routes/), read without importing it: the route file loads this screen. */
const route = getRouteApi('/reset-password');

function InvalidResetLink() {
  return (
    <StatusCard
      tone="error"
      icon={<AlertIcon />}
      title="Invalid Reset Link"
      actions={
        <Link to="/auth" className={buttonClass('primary')}>
          Return to Login
        </Link>
      }
    >
      <p>This password reset link is invalid or has expired</p>
    </StatusCard>
  );
}

export function ResetPasswordScreen() {
  const { token, welcome } = route.useSearch();
  const navigate = useNavigate();
  const form = useZodForm(NewPasswordForm, { password: '', confirm: '' });
  const [busy, setBusy] = useState(false);
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
      <StatusCard tone="success" icon={<CheckIcon />} title="Password Updated!">
        <p>Your new password is set. Taking you to sign in…</p>
      </StatusCard>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const values = form.validate();
    if (!values) return;
    setBusy(true);
    try {
      const answer = await api.post(
        '/api/reset-password',
        { token, password: values.password },
        { schema: ResetPasswordResponse },
      );
      setDone({ isFirstTime: answer.isFirstTime });
    } catch (err) {
      toast({ title: 'Reset failed', description: errorMessage(err), variant: 'destructive' });
      if (err instanceof ApiError && (err.code === 'token_invalid' || err.code === 'token_expired'))
        setLinkDead(true);
      setBusy(false);
    }
  };

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
        <form ref={form.formRef} className="form" onSubmit={onSubmit} noValidate>
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="At least 6 characters"
            {...form.field('password')}
          />
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
      </div>
    </div>
  );
}
