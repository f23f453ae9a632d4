/**
 * A labelled text area with a live 'n/max' counter announced as its description, and its error
 * tied to it. Two looks: 'compact' (the friends screens and Home's dialogs; its rules are in
 * components.css, which every page loads) and 'tall' (the setup flow; its rules live in
 * setup.css, which the screens using it import).
 */
import { useId } from 'react';

export interface CountedTextAreaProps {
  label: string;
  value: string;
  onChange(value: string): void;
  maxLength: number;
  placeholder?: string;
  rows?: number;
  error?: string | undefined;
  /** 'compact' (components.css, the default) or 'tall' (setup.css). */
  look?: 'compact' | 'tall';
}

const LOOKS = {
  compact: { head: 'fr-counted__head', count: 'fr-counted__count', input: 'fr-counted__input' },
  tall: { head: 'field__row', count: 'field__counter', input: 'textarea' },
} as const;

export function CountedTextArea({
  label,
  value,
  onChange,
  maxLength,
  placeholder,
  rows = 3,
  error,
  look = 'compact',
}: CountedTextAreaProps) {
  const id = useId();
  const counterId = `${id}-count`;
  const errorId = `${id}-error`;
  const classes = LOOKS[look];
  return (
    <div className="field">
      <div className={classes.head}>
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <span id={counterId} className={classes.count}>
          {value.length}/{maxLength}
        </span>
      </div>
      <textarea
        id={id}
        className={`input ${classes.input}`}
        value={value}
        maxLength={maxLength}
        rows={rows}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${counterId} ${errorId}` : counterId}
        onChange={(e) => onChange(e.target.value.slice(0, maxLength))}
      />
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
