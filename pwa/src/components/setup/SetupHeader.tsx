import { SETUP_STEPS, setupProgress, type SetupStep } from './setup-rules';
import { useSession } from '../../stores';
import { signOut } from '../../session';
import { confirmSignOut } from '../../sync/sign-out';
import { useNavigate } from '@tanstack/react-router';

/** The setup's title, its progress bar and a way out (signing out) for someone not ready. */
export function SetupHeader({ name, step }: { name: string; step: SetupStep }) {
  const navigate = useNavigate();
  const signedIn = useSession((s) => s.status === 'signed-in');
  return (
    <header className="setup__header">
      <div className="setup__intro">
        <p className="setup__eyebrow">Welcome, {name}!</p>
        <h1 className="setup__heading">Set up your profile</h1>
      </div>
      <div className="setup__progress">
        <div className="setup__progress-text">
          <span>
            Step {step} of {SETUP_STEPS}
          </span>
          {signedIn && (
            <button
              type="button"
              className="link-button setup__signout"
              onClick={async () => {
                if (await confirmSignOut()) await signOut(() => navigate({ to: '/' }));
              }}
            >
              Sign out
            </button>
          )}
        </div>
        <div
          className="progress"
          role="progressbar"
          aria-label="Setup progress"
          aria-valuemin={1}
          aria-valuemax={SETUP_STEPS}
          aria-valuenow={step}
          aria-valuetext={`Step ${step} of ${SETUP_STEPS}`}
        >
          <span className="progress__bar" style={{ width: `${setupProgress(step)}%` }} />
        </div>
      </div>
    </header>
  );
}
