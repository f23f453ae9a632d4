/**
 * The account's own security in the owner's Settings tab: change password (when the account has
 * one), sign out everywhere, blocked people and delete account.
 */
import type { SelfUser } from '@pingme/shared';
import { BlockedPeople } from './BlockedPeople';
import { ChangePasswordForm } from './ChangePasswordForm';
import { DeleteAccount } from './DeleteAccount';
import { SignOutEverywhere } from './SignOutEverywhere';
import '../../styles/safety.css';

export function SafetySettings({ me }: { me: SelfUser }) {
  return (
    <div className="sf-settings" data-testid="safety-settings">
      {me.hasPassword ? (
        <ChangePasswordForm />
      ) : (
        <p className="sf-muted">
          You sign in with Google. To set a password, use “Forgot your password?” on the sign-in
          page.
        </p>
      )}
      <BlockedPeople />
      <div className="sf-block" role="group" aria-labelledby="sf-account-title">
        <h4 id="sf-account-title" className="sf-subtitle">
          Your account
        </h4>
        <div className="sf-stack">
          <SignOutEverywhere />
          <DeleteAccount me={me} />
        </div>
      </div>
    </div>
  );
}
