/**
 * The Verify e-mail screen (/verify-email?token=...; routes/verify-email.tsx loads it):
 * Verifying, then Verified, Link Expired or Failed.
 */
import { Email, ResendVerificationResponse, VerifyEmailResponse } from '@pingme/shared';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, NetworkError, api, errorMessage } from '../api';
import { Button } from '../components/Button';
import { ButtonLink } from '../components/ButtonLink';
import { StatusCard } from '../components/StatusCard';
import { TextField } from '../components/TextField';
import { toast, useSession } from '../stores';

/** This screen's route (routes/), read without importing it: the route file loads this screen. */
const route = getRouteApi('/verify-email');

type VerifyState =
  | { kind: 'verifying' }
  | { kind: 'verified'; firstName: string | null }
  | { kind: 'expired'; message: string }
  | { kind: 'failed'; message: string };

const backToLogin = (
  <ButtonLink to="/auth" variant="secondary">
    Back to Login
  </ButtonLink>
);

export function VerifyEmailScreen() {
  const { token } = route.useSearch();
  const [state, setState] = useState<VerifyState>(
    token ? { kind: 'verifying' } : { kind: 'failed', message: 'No verification token provided.' },
  );
  const started = useRef<string | null>(null);

  useEffect(() => {
    // A token works once: never send it twice (React's dev double-effects included).
    if (!token || started.current === token) return;
    started.current = token;
    api
      .get(`/api/verify-email?token=${encodeURIComponent(token)}`, { schema: VerifyEmailResponse })
      .then((answer) => {
        setState({ kind: 'verified', firstName: answer.user.firstName });
        toast({ title: 'Email verified!', variant: 'success' });
      })
      .catch((err: unknown) => {
        if (err instanceof NetworkError || !(err instanceof ApiError)) {
          setState({ kind: 'failed', message: 'Verification failed. Please try again.' });
          return;
        }
        const message = errorMessage(err);
        setState(
          /expired/i.test(message) ? { kind: 'expired', message } : { kind: 'failed', message },
        );
      });
  }, [token]);

  switch (state.kind) {
    case 'verifying':
      return (
        <StatusCard tone="busy" title="Verifying">
          <p>Confirming your email address…</p>
        </StatusCard>
      );
    case 'verified':
      return (
        <StatusCard
          tone="success"
          title="Email Verified"
          actions={<ButtonLink to="/auth">Continue to Login</ButtonLink>}
        >
          <p>
            Welcome to PingMe{state.firstName ? `, ${state.firstName}` : ''}! Your email address is
            confirmed.
          </p>
        </StatusCard>
      );
    case 'expired':
      return (
        <StatusCard tone="warning" title="Link Expired">
          <p>{state.message}</p>
          <ResendVerification />
        </StatusCard>
      );
    case 'failed':
      return (
        <StatusCard tone="error" title="Verification Failed" actions={backToLogin}>
          <p>{state.message}</p>
        </StatusCard>
      );
  }
}

/** 'Send New Verification Email': uses the signed-in person's address, else asks for it. */
function ResendVerification() {
  const knownEmail = useSession((s) => s.user?.email ?? null);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = Email.safeParse(knownEmail ?? email);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const answer = await api.post(
        '/api/resend-verification',
        { email: parsed.data },
        { schema: ResendVerificationResponse },
      );
      toast({ title: 'Verification email sent', description: answer.message, variant: 'success' });
    } catch (err) {
      if (err instanceof ApiError && err.body?.error) {
        toast({ title: 'Failed to resend', description: err.body.error, variant: 'destructive' });
      } else {
        toast({
          title: 'Error',
          description: 'Failed to resend verification email.',
          variant: 'destructive',
        });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form status-card__form" onSubmit={onSubmit} noValidate>
      {!knownEmail && (
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          error={error}
          onChange={(e) => setEmail(e.target.value)}
        />
      )}
      <div className="status-card__actions">
        <Button type="submit" loading={busy}>
          Send New Verification Email
        </Button>
        {backToLogin}
      </div>
    </form>
  );
}
