import { z } from 'zod';
import { LIMITS } from '../constants';

export const Id = z.uuid({ message: 'Must be a valid id' });
export const IsoDate = z.string();

export const Email = z
  .string({ message: 'Please enter a valid email' })
  .trim()
  .toLowerCase()
  .max(LIMITS.email, 'Please enter a valid email')
  .pipe(z.email({ message: 'Please enter a valid email' }));

export const Password = z
  .string({ message: 'Password must be at least 6 characters' })
  .min(LIMITS.passwordMin, 'Password must be at least 6 characters')
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`);

/** Route params of the form {id}. */
export const IdParams = z.object({ id: Id });

export const Ok = z.object({ success: z.literal(true), message: z.string().optional() });
export type Ok = z.infer<typeof Ok>;

/** 'HH:MM' 24-hour clock, or empty for "not set". */
export const ClockTime = z
  .string()
  .regex(/^(([01]\d|2[0-3]):[0-5]\d)?$/, 'Use the 24-hour format HH:MM');
