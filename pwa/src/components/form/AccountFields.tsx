/**
 * The e-mail and password inputs of the account forms (sign in, sign up, reset and change
 * password, forgot password), so each keeps the same label, keyboard and autofill hints.
 */
import { LIMITS } from '@pingme/shared';
import { TextField, type TextFieldProps } from '../TextField';

type FieldProps = Omit<TextFieldProps, 'label' | 'type' | 'autoComplete'> & { label?: string };

export function EmailField({ label = 'Email', ...props }: FieldProps) {
  return <TextField label={label} type="email" autoComplete="email" inputMode="email" {...props} />;
}

/** The password the account has now: password managers fill it in. */
export function CurrentPasswordField({ label = 'Password', ...props }: FieldProps) {
  return <TextField label={label} type="password" autoComplete="current-password" {...props} />;
}

/** A password being chosen: password managers offer to generate one; the hint is the rule. */
export function NewPasswordField({ label = 'New password', ...props }: FieldProps) {
  return (
    <TextField
      label={label}
      type="password"
      autoComplete="new-password"
      hint={`At least ${LIMITS.passwordMin} characters`}
      {...props}
    />
  );
}
