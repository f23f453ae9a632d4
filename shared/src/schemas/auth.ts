import { z } from 'zod';
import { LIMITS } from '../constants';
import { cleanName, hasVisibleCharacter } from '../unicode';
import { Email, Password } from './common';
import { SelfUser } from './users';

/**
 * A person's first or last name: NFC, without bidirectional controls, trimmed, and with at least
 * one visible character (unicode.ts). Sign-up, and names an OpenID provider gives, go through it.
 */
const personName = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .overwrite(cleanName)
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(hasVisibleCharacter, `${label} needs at least one visible letter`);

export const FirstName = personName('First name', LIMITS.firstName);
export const LastName = personName('Last name', LIMITS.lastName);

export const RegisterBody = z.strictObject({
  email: Email,
  password: Password,
  firstName: FirstName,
  lastName: LastName,
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.strictObject({
  email: Email,
  password: Password,
});
export type LoginBody = z.infer<typeof LoginBody>;

/** POST /api/register and POST /api/login answer with the signed-in user. */
export const AuthResponse = SelfUser;

/**
 * GET /api/session: who this browser is, for everyone. 200 with `user: null` for a visitor (no
 * session is created), the same `SelfUser` as GET /api/user when signed in.
 */
export const SessionResponse = z.object({ user: SelfUser.nullable() });
export type SessionResponse = z.infer<typeof SessionResponse>;

export const ForgotPasswordBody = z.strictObject({ email: Email });
/**
 * The same for every address, known or not. The spec's `resetLink` is never answered: a reset
 * link goes by mail, or without mail to the server's log only (docs/decisions.md).
 */
export const ForgotPasswordResponse = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type ForgotPasswordResponse = z.infer<typeof ForgotPasswordResponse>;

export const ResetPasswordBody = z.strictObject({
  token: z.string({ message: 'Reset token is missing' }).min(1, 'Reset token is missing').max(200),
  password: Password,
});
export const ResetPasswordResponse = z.object({
  success: z.literal(true),
  isFirstTime: z.boolean(),
});
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponse>;

export const VerifyEmailQuery = z.object({
  token: z
    .string({ message: 'No verification token provided.' })
    .min(1, 'No verification token provided.')
    .max(200),
});
export const VerifyEmailResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  user: z.object({ email: z.string(), firstName: z.string().nullable() }),
});
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>;

export const ResendVerificationBody = z.strictObject({ email: Email });
export const ResendVerificationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
});
