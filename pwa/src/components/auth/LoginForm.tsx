import { AuthResponse, DELAYS_MS, LoginBody } from '@pingme/shared';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '../../api';
import { useZodForm } from '../../hooks/useZodForm';
import { takeReturnTo } from '../../navigation';
import { rememberUser } from '../../session';
import { toast, useToasts } from '../../stores';
import { Button } from '../Button';
import { TextField } from '../TextField';
import { GoogleButton, OrDivider } from './GoogleButton';

export function LoginForm({ onForgotPassword }: { onForgotPassword(): void }) {
  const navigate = useNavigate();
  const form = useZodForm(LoginBody, { email: '', password: '' });
  const [busy, setBusy] = useState(false);
  const [signedIn, setSignedIn] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate();
    if (!body) return;
    setBusy(true);
    try {
      const user = await api.post('/api/login', body, { schema: AuthResponse, on401: 'throw' });
      await rememberUser(user);
      setSignedIn(true);
      // An earlier 'Login failed' is no longer true.
      useToasts.getState().dismiss();
      // Spec: the cached user is set, then home after 1 s (or the invite that sent them here).
      setTimeout(
        () => void navigate({ href: takeReturnTo(), replace: true }),
        DELAYS_MS.loginSuccessRedirect,
      );
    } catch (err) {
      toast({ title: 'Login failed', description: errorMessage(err), variant: 'destructive' });
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
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        {...form.field('password')}
      />
      <div className="form__aside">
        <button type="button" className="link-button" onClick={onForgotPassword}>
          Forgot your password?
        </button>
      </div>
      <Button type="submit" size="lg" block loading={busy}>
        Sign in
      </Button>
      {signedIn && (
        <p className="form__status" role="status">
          Signed in! Taking you home…
        </p>
      )}
      <OrDivider />
      <GoogleButton label="Continue with Google" />
    </form>
  );
}
