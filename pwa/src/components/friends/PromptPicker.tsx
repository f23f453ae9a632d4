/** The prompts you can send (defaults in display order, then your own) as one radio list. */
import { emojiFor, type Prompt } from '@pingme/shared';
import { cx } from '../cx';

export interface PromptPickerProps {
  prompts: readonly Prompt[];
  value: string | null;
  onChange(id: string): void;
  error?: string | undefined;
}

export function PromptPicker({ prompts, value, onChange, error }: PromptPickerProps) {
  return (
    <fieldset className="fr-choices-field" aria-describedby={error ? 'prompt-error' : undefined}>
      <legend className="field__label">Choose a prompt</legend>
      <ul className="fr-prompts">
        {prompts.map((p) => (
          <li key={p.id}>
            <label className={cx('fr-prompt', value === p.id && 'is-selected')}>
              <input
                type="radio"
                name="prompt"
                value={p.id}
                checked={value === p.id}
                onChange={() => onChange(p.id)}
                className="visually-hidden"
              />
              <span className="fr-prompt__emoji" aria-hidden="true">
                {p.emoji || emojiFor(p.text)}
              </span>
              <span className="fr-prompt__text">{p.text}</span>
              {!p.isDefault && <span className="fr-prompt__tag">Custom</span>}
            </label>
          </li>
        ))}
      </ul>
      {error && (
        <p id="prompt-error" className="field__error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
