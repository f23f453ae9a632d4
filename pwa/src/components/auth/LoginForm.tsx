/**
 * The Login tab of /auth: e-mail and password (POST /api/login), then home after the spec's
 * pause, or back to the invite that sent the person here.
 */
import { AuthResponse, DELAYS_MS, LoginBody } from '@pingme/shared';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../../api';
import { useZodForm } from '../../hooks/useZodForm';
import { takeReturnTo } from '../../navigation';
import { rememberUser } from '../../session';
import { useToasts } from '../../stores';
import { Button } from '../Button';
import { CurrentPasswordField, EmailField } from '../form/AccountFields';
import { useFormSubmit } from '../form/useFormSubmit';
import { GoogleButton, OrDivider } from './GoogleButton';

export function LoginForm({ onForgotPassword }: { onForgotPassword(): void }) {
  const navigate = useNavigate();
  const form = useZodForm(LoginBody, { email: '', password: '' });
  const [signedIn, setSignedIn] = useState(false);

  const { busy, onSubmit } = useFormSubmit(form, 'Login failed', async (body) => {
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
  });

  return (
    <form ref={form.formRef} className="form" onSubmit={onSubmit} noValidate>
      <EmailField {...form.field('email')} />
      <CurrentPasswordField {...form.field('password')} />
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
