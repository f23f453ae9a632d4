import { useId, type TextareaHTMLAttributes } from 'react';

export interface CountedTextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  value: string;
  maxLength: number;
  error?: string | undefined;
}

/** A labelled text area with a live character counter (n/max) and its error tied to it. */
export function CountedTextArea({
  label,
  value,
  maxLength,
  error,
  id,
  ...rest
}: CountedTextAreaProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const counterId = `${inputId}-count`;
  const errorId = `${inputId}-error`;
  return (
    <div className="field">
      <div className="fr-counted__head">
        <label className="field__label" htmlFor={inputId}>
          {label}
        </label>
        <span id={counterId} className="fr-counted__count">
          {value.length}/{maxLength}
        </span>
      </div>
      <textarea
        id={inputId}
        className="input fr-counted__input"
        value={value}
        maxLength={maxLength}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={[counterId, error && errorId].filter(Boolean).join(' ')}
        {...rest}
      />
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
