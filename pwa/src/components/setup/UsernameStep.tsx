/** Setup step 1: the username, its availability and up to 6 suggestions to tap. */
import { LIMITS } from '@pingme/shared';
import { useId } from 'react';
import { Button } from '../Button';
import { CheckIcon } from '../icons';
import { cleanHandle, type HandleStatus } from './setup-rules';

export interface UsernameStepProps {
  handle: string;
  onHandleChange(handle: string): void;
  status: HandleStatus;
  suggestions: string[];
  onRetry(): void;
}

const HINT = `${LIMITS.usernameMin}-${LIMITS.usernameMax} characters: lower-case letters, numbers and _`;

export function UsernameStep({
  handle,
  onHandleChange,
  status,
  suggestions,
  onRetry,
}: UsernameStepProps) {
  const id = useId();
  const taken = status === 'taken';
  return (
    <div className="setup-step">
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Username
        </label>
        <div className="handle-input">
          <span className="handle-input__at" aria-hidden="true">
            @
          </span>
          <input
            id={id}
            className="input handle-input__field"
            value={handle}
            onChange={(e) => onHandleChange(cleanHandle(e.target.value))}
            maxLength={LIMITS.usernameMax}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={taken || undefined}
            aria-describedby={`${id}-status`}
          />
          <HandleBadge status={status} />
        </div>
        <p id={`${id}-status`} className="handle-status" aria-live="polite">
          {status === 'short' && <span className="field__hint">{HINT}</span>}
          {status === 'checking' && <span className="field__hint">Checking availability…</span>}
          {status === 'available' && (
            <span className="handle-status__ok">@{handle} is available</span>
          )}
          {taken && <span className="field__error">Username not available</span>}
          {status === 'error' && (
            <span className="field__error">
              Could not check this username.{' '}
              <button type="button" className="link-button" onClick={onRetry}>
                Try again
              </button>
            </span>
          )}
        </p>
      </div>

      {taken && suggestions.length > 0 && (
        <section className="setup-suggestions" aria-labelledby={`${id}-suggest`}>
          <h3 id={`${id}-suggest`} className="setup-subtitle">
            Try one of these
          </h3>
          <ul className="chip-list">
            {suggestions.slice(0, LIMITS.usernameSuggestions).map((s) => (
              <li key={s}>
                <Button variant="secondary" size="sm" onClick={() => onHandleChange(s)}>
                  @{s}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function HandleBadge({ status }: { status: HandleStatus }) {
  if (status === 'checking') return <span className="spinner handle-input__badge" aria-hidden />;
  if (status === 'available')
    return (
      <span className="handle-input__badge handle-input__badge--ok" aria-hidden>
        <CheckIcon />
      </span>
    );
  if (status === 'taken')
    return <span className="handle-input__badge handle-input__badge--taken">Taken</span>;
  return null;
}
