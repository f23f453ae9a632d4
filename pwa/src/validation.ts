/** Client-only form schemas; request bodies use the shared ones (RegisterBody, LoginBody...). */
import { Password } from '@pingme/shared';
import { z } from 'zod';

/** Spec section 5: both at least 6 characters, and they must match (shown on the confirm field). */
export const NewPasswordForm = z
  .object({ password: Password, confirm: Password })
  .refine((v) => v.password === v.confirm, { message: "Passwords don't match", path: ['confirm'] });
