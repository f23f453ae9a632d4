/**
 * Trust and safety: blocking, reporting, and the account's own security (change password, sign
 * out everywhere, delete the account). docs/api.md "Safety" and docs/security.md.
 */
import { z } from 'zod';
import { LIMITS } from '../constants';
import { Id, IsoDate, Password } from './common';
import { UserSummary } from './users';

// ---------- blocks ----------

export const BlockBody = z.strictObject({ userId: Id });
export type BlockBody = z.infer<typeof BlockBody>;

export const BlockParams = z.object({ userId: Id });
export type BlockParams = z.infer<typeof BlockParams>;

/** One person the caller has blocked (GET /api/blocks, POST /api/blocks). */
export const BlockedPerson = z.object({
  userId: Id,
  user: UserSummary,
  createdAt: IsoDate,
});
export type BlockedPerson = z.infer<typeof BlockedPerson>;

export const UnblockResponse = z.object({
  success: z.literal(true),
  /** false when the person was not blocked (nothing changed). */
  wasBlocked: z.boolean(),
});
export type UnblockResponse = z.infer<typeof UnblockResponse>;

// ---------- reports ----------

export const REPORT_REASONS = ['spam', 'harassment', 'inappropriate', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_STATUSES = ['open', 'resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_DETAILS_MAX = 500;

const details = z
  .string({ message: 'Details must be text' })
  .trim()
  .max(REPORT_DETAILS_MAX, `Details must be at most ${REPORT_DETAILS_MAX} characters`)
  .transform((v) => (v === '' ? null : v));

export const ReportBody = z
  .strictObject({
    id: Id.optional(),
    userId: Id.optional(),
    pingId: Id.optional(),
    reason: z.enum(REPORT_REASONS, {
      message: 'Choose a reason: spam, harassment, inappropriate or other',
    }),
    details: details.nullable().optional(),
  })
  .refine((b) => b.userId !== undefined || b.pingId !== undefined, {
    message: 'Say which person or which ping you are reporting',
    path: ['userId'],
  });
export type ReportBody = z.output<typeof ReportBody>;

/** A report as its author sees it (POST /api/reports). */
export const Report = z.object({
  id: Id,
  /** The person reported (for a ping: its sender). */
  userId: Id,
  pingId: Id.nullable(),
  reason: z.enum(REPORT_REASONS),
  details: z.string().nullable(),
  status: z.enum(REPORT_STATUSES),
  createdAt: IsoDate,
});
export type Report = z.infer<typeof Report>;

/** A report as an admin sees it (GET /api/admin/reports). */
export const AdminReport = Report.extend({
  reporter: UserSummary.extend({ email: z.string() }),
  user: UserSummary.extend({ email: z.string() }),
  ping: z
    .object({
      id: Id,
      kind: z.string(),
      text: z.string().nullable(),
      emoji: z.string().nullable(),
      createdAt: IsoDate,
    })
    .nullable(),
  note: z.string().nullable(),
  resolvedAt: IsoDate.nullable(),
  resolvedBy: Id.nullable(),
});
export type AdminReport = z.infer<typeof AdminReport>;

export const AdminReportsQuery = z.object({
  status: z
    .enum([...REPORT_STATUSES, 'all'], { message: "Status must be 'open', 'resolved' or 'all'" })
    .default('open'),
});
export type AdminReportsQuery = z.output<typeof AdminReportsQuery>;

export const ResolveReportBody = z.strictObject({
  status: z.literal('resolved', { message: "Status must be 'resolved'" }),
  note: details.nullable().optional(),
});
export type ResolveReportBody = z.output<typeof ResolveReportBody>;

// ---------- the account's own security ----------

export const ChangePasswordBody = z.strictObject({
  currentPassword: z
    .string({ message: 'Enter your current password' })
    .min(1, 'Enter your current password')
    .max(LIMITS.passwordMax, 'Enter your current password'),
  newPassword: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const ChangePasswordResponse = z.object({
  success: z.literal(true),
  /** How many other sessions (devices) were signed out. */
  endedSessions: z.number().int(),
});
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponse>;

export const LogoutEverywhereResponse = z.object({
  success: z.literal(true),
  endedSessions: z.number().int(),
});
export type LogoutEverywhereResponse = z.infer<typeof LogoutEverywhereResponse>;

/** The typed confirmation for accounts without a password (Google sign-in). */
export const DELETE_CONFIRMATION = 'DELETE';

export const DeleteAccountBody = z.strictObject({
  password: z
    .string({ message: 'Enter your password to delete your account' })
    .min(1, 'Enter your password to delete your account')
    .max(LIMITS.passwordMax, 'Enter your password to delete your account')
    .optional(),
  confirm: z
    .literal(DELETE_CONFIRMATION, { message: `Type ${DELETE_CONFIRMATION} to confirm` })
    .optional(),
});
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

export const DeleteAccountResponse = z.object({ success: z.literal(true) });
export type DeleteAccountResponse = z.infer<typeof DeleteAccountResponse>;
