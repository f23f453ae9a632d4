import { LoginBody, RegisterBody } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import { fieldErrors } from './hooks/useZodForm';
import { NewPasswordForm } from './validation';

const errorsOf = (
  schema: { safeParse(v: unknown): { success: boolean; error?: unknown } },
  v: unknown,
) => {
  const r = schema.safeParse(v);
  return r.success ? {} : fieldErrors(r.error as Parameters<typeof fieldErrors>[0]);
};

describe('form messages (spec section 5)', () => {
  it('login', () => {
    expect(errorsOf(LoginBody, { email: 'nope', password: '123' })).toEqual({
      email: 'Please enter a valid email',
      password: 'Password must be at least 6 characters',
    });
  });

  it('sign-up', () => {
    expect(
      errorsOf(RegisterBody, {
        firstName: ' ',
        lastName: '',
        email: 'a@b.co',
        password: 'secret1',
      }),
    ).toEqual({ firstName: 'First name is required', lastName: 'Last name is required' });
    // The server's rule, shown before anything is sent: a name must be visible.
    expect(
      errorsOf(RegisterBody, {
        firstName: '\u200B',
        lastName: '\u0301',
        email: 'a@b.co',
        password: 'secret1',
      }),
    ).toEqual({
      firstName: 'First name needs at least one visible letter',
      lastName: 'Last name needs at least one visible letter',
    });
  });

  it("new password: 'Passwords don't match' on the confirm field", () => {
    expect(errorsOf(NewPasswordForm, { password: 'secret1', confirm: 'secret2' })).toEqual({
      confirm: "Passwords don't match",
    });
    expect(errorsOf(NewPasswordForm, { password: 'abc', confirm: 'abc' })).toEqual({
      password: 'Password must be at least 6 characters',
      confirm: 'Password must be at least 6 characters',
    });
    expect(errorsOf(NewPasswordForm, { password: 'secret1', confirm: 'secret1' })).toEqual({});
  });
});
