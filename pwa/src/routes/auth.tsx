/** Auth (/auth): Login and Sign Up tabs, the forgot-password dialog, Google sign-in errors. */
import { createRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { LoginForm } from '../components/auth/LoginForm';
import { SignUpForm } from '../components/auth/SignUpForm';
import { Tabs } from '../components/Tabs';
import { ForgotPasswordDialog } from '../dialogs/ForgotPasswordDialog';
import { rootRoute } from './__root';
import { guard } from './guard';
import { optionalString } from './search';

export interface AuthSearch {
  /** Set by the server's Google flow when it fails (/auth?error=...). */
  error?: string | undefined;
  /** 'true' after a first-time password was set. */
  welcome?: string | undefined;
  tab?: 'login' | 'signup' | undefined;
}

export const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth',
  beforeLoad: guard('guest'),
  validateSearch: (search: Record<string, unknown>): AuthSearch => ({
    error: optionalString(search.error),
    welcome: optionalString(search.welcome),
    tab: search.tab === 'signup' ? 'signup' : undefined,
  }),
  component: AuthScreen,
});

function AuthScreen() {
  const { error, welcome, tab } = authRoute.useSearch();
  const [active, setActive] = useState<string>(tab ?? 'login');
  const [forgotOpen, setForgotOpen] = useState(false);

  return (
    <div className="auth">
      <div className="auth__intro">
        <h1 className="auth__title">Welcome to PingMe</h1>
        <p className="auth__lead">Sign in or create an account to start pinging your people.</p>
      </div>
      {welcome === 'true' && (
        <div className="notice notice--success" role="status">
          Your password is set. Sign in to get started.
        </div>
      )}
      {error && (
        <div className="notice notice--error" role="alert">
          <strong>Sign-in didn’t work.</strong> {error}
        </div>
      )}
      <div className="card auth__card">
        <Tabs
          label="Sign in or create an account"
          value={active}
          onValueChange={setActive}
          items={[
            {
              value: 'login',
              label: 'Login',
              content: <LoginForm onForgotPassword={() => setForgotOpen(true)} />,
            },
            { value: 'signup', label: 'Sign Up', content: <SignUpForm /> },
          ]}
        />
      </div>
      <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
    </div>
  );
}
