/**
 * Form state validated by a shared zod schema, so the messages a person sees are the server's
 * own (spec section 5). Errors appear on submit, then follow every keystroke.
 */
import { useRef, useState, type ChangeEvent, type RefObject } from 'react';
import type { z } from 'zod';

/** The first message per top-level field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

export interface ZodForm<K extends string, Out> {
  values: Record<K, string>;
  errors: Partial<Record<K, string>>;
  formRef: RefObject<HTMLFormElement | null>;
  /** Props for <TextField>: name, value, onChange and error. */
  field(name: K): {
    name: K;
    value: string;
    error: string | undefined;
    onChange(e: ChangeEvent<HTMLInputElement>): void;
  };
  /** Validates everything; returns the parsed body, or null after focusing the first error. */
  validate(): Out | null;
}

export function useZodForm<K extends string, S extends z.ZodType>(
  schema: S,
  initial: Record<K, string>,
): ZodForm<K, z.output<S>> {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const [attempted, setAttempted] = useState(false);
  const formRef = useRef<HTMLFormElement | null>(null);

  const check = (next: Record<K, string>): z.output<S> | null => {
    const result = schema.safeParse(next);
    setErrors(result.success ? {} : (fieldErrors(result.error) as Partial<Record<K, string>>));
    return result.success ? result.data : null;
  };

  return {
    values,
    errors,
    formRef,
    field: (name) => ({
      name,
      value: values[name],
      error: errors[name],
      onChange: (e) => {
        const next = { ...values, [name]: e.target.value };
        setValues(next);
        if (attempted) check(next);
      },
    }),
    validate: () => {
      setAttempted(true);
      const data = check(values);
      if (data === null) {
        requestAnimationFrame(() =>
          formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
        );
      }
      return data;
    },
  };
}
