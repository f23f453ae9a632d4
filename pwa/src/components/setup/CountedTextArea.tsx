import { useId } from 'react';
import '../../styles/setup.css';

export interface CountedTextAreaProps {
  label: string;
  value: string;
  onChange(value: string): void;
  max: number;
  placeholder?: string;
  rows?: number;
  error?: string | undefined;
}

/** A labelled text area with its 'n/max' counter announced as its description. */
export function CountedTextArea({
  label,
  value,
  onChange,
  max,
  placeholder,
  rows = 3,
  error,
}: CountedTextAreaProps) {
  const id = useId();
  return (
    <div className="field">
      <div className="field__row">
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <span id={`${id}-count`} className="field__counter">
          {value.length}/{max}
        </span>
      </div>
      <textarea
        id={id}
        className="input textarea"
        value={value}
        maxLength={max}
        rows={rows}
        placeholder={placeholder}
        aria-describedby={error ? `${id}-count ${id}-error` : `${id}-count`}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value.slice(0, max))}
      />
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
