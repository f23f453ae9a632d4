/**
 * The Auth screen (/auth; routes/auth.tsx loads it on first visit): Login and Sign Up tabs, the
 * forgot-password dialog, Google sign-in errors.
 */
import { lazyRouteComponent, getRouteApi } from '@tanstack/react-router';
import { Suspense, useState } from 'react';
import { LoginForm } from '../components/auth/LoginForm';
import { SignUpForm } from '../components/auth/SignUpForm';
import { Tabs } from '../components/Tabs';

/** This screen's route (routes/), read without importing it: the route file loads this screen. */
const route = getRouteApi('/auth');

/** The dialog (and Radix Dialog) is its own chunk, fetched while the screen shows. */
const ForgotPasswordDialog = lazyRouteComponent(
  () => import('../dialogs/ForgotPasswordDialog'),
  'ForgotPasswordDialog',
);

export function AuthScreen() {
  const { error, welcome, tab } = route.useSearch();
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
          defaultValue={tab ?? 'login'}
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
      <Suspense fallback={null}>
        <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
      </Suspense>
    </div>
  );
}
