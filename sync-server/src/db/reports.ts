/**
 * Reports about a person or a ping (docs/api.md "Safety"). The reporter sees only their own
 * report as they sent it; admins see every report with both people and the ping.
 */
import type { AdminReport, Report, ReportReason } from '@pingme/shared';
import type { Selectable } from 'kysely';
import type { Db } from './connection';
import type { ReportsTable } from './schema';

export type ReportRow = Selectable<ReportsTable>;

export function toReport(
  r: Pick<
    ReportRow,
    'id' | 'reportedUserId' | 'pingId' | 'reason' | 'details' | 'status' | 'createdAt'
  >,
): Report {
  return {
    id: r.id,
    userId: r.reportedUserId,
    pingId: r.pingId,
    reason: r.reason,
    details: r.details,
    status: r.status,
    createdAt: r.createdAt,
  };
}

export async function findReport(db: Db, id: string): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertReport(
  db: Db,
  r: {
    id: string;
    reporterId: string;
    reportedUserId: string;
    pingId: string | null;
    reason: ReportReason;
    details: string | null;
    createdAt: string;
  },
): Promise<ReportRow> {
  return db
    .insertInto('reports')
    .values({ ...r, status: 'open', note: null, resolvedAt: null, resolvedBy: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Marks an open report resolved; false when it was not open. */
export async function resolveReport(
  db: Db,
  id: string,
  by: string,
  note: string | null,
  at: string,
): Promise<boolean> {
  const r = await db
    .updateTable('reports')
    .set({ status: 'resolved', note, resolvedAt: at, resolvedBy: by })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export const ADMIN_REPORTS_LIMIT = 500;

/**
 * Reports for the admin dashboard with both people and the ping, newest first; `status` 'all'
 * lists both kinds. `ids` narrows to those reports.
 */
export async function listAdminReports(
  db: Db,
  opts: { status: 'open' | 'resolved' | 'all'; ids?: string[] },
): Promise<AdminReport[]> {
  let q = db
    .selectFrom('reports as r')
    .innerJoin('users as rep', 'rep.id', 'r.reporterId')
    .innerJoin('users as u', 'u.id', 'r.reportedUserId')
    .leftJoin('pings as p', 'p.id', 'r.pingId')
    .select([
      'r.id',
      'r.reportedUserId',
      'r.pingId',
      'r.reason',
      'r.details',
      'r.status',
      'r.note',
      'r.createdAt',
      'r.resolvedAt',
      'r.resolvedBy',
      'rep.id as repId',
      'rep.firstName as repFirstName',
      'rep.lastName as repLastName',
      'rep.profileImageUrl as repProfileImageUrl',
      'rep.email as repEmail',
      'u.firstName as uFirstName',
      'u.lastName as uLastName',
      'u.profileImageUrl as uProfileImageUrl',
      'u.email as uEmail',
      'p.kind as pKind',
      'p.customText as pCustomText',
      'p.customEmoji as pCustomEmoji',
      'p.promptText as pPromptText',
      'p.promptEmoji as pPromptEmoji',
      'p.createdAt as pCreatedAt',
    ]);
  if (opts.status !== 'all') q = q.where('r.status', '=', opts.status);
  if (opts.ids) q = q.where('r.id', 'in', opts.ids.length ? opts.ids : ['']);
  const rows = await q
    .orderBy('r.createdAt', 'desc')
    .orderBy('r.id', 'desc')
    .limit(ADMIN_REPORTS_LIMIT)
    .execute();
  return rows.map((r) => ({
    ...toReport(r),
    note: r.note,
    resolvedAt: r.resolvedAt,
    resolvedBy: r.resolvedBy,
    reporter: {
      id: r.repId,
      firstName: r.repFirstName,
      lastName: r.repLastName,
      profileImageUrl: r.repProfileImageUrl,
      email: r.repEmail,
    },
    user: {
      id: r.reportedUserId,
      firstName: r.uFirstName,
      lastName: r.uLastName,
      profileImageUrl: r.uProfileImageUrl,
      email: r.uEmail,
    },
    ping:
      r.pingId && r.pKind && r.pCreatedAt
        ? {
            id: r.pingId,
            kind: r.pKind,
            text: r.pCustomText ?? r.pPromptText,
            emoji: r.pCustomEmoji ?? r.pPromptEmoji,
            createdAt: r.pCreatedAt,
          }
        : null,
  }));
}
