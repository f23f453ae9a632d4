/**
 * Block and report (docs/api.md "Safety", docs/security.md "Blocking" and "Reports"). A block
 * ends everything between the two people in one transaction and hides each from the other; what
 * the blocked person gets from then on is exactly what a stranger gets, never a word about the
 * block. Reports are stored for admins, who resolve them.
 */
import { uuidv7 } from '@pingme/shared';
import { deleteBlock, findBlock, insertBlock } from '../db/blocks';
import { nowIso } from '../db/connection';
import { findPing, pingIdsReadSince } from '../db/pings';
import { findReport, insertReport, listAdminReports, resolveReport, toReport } from '../db/reports';
import { findUserById, toSummary } from '../db/users';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { buckets, throttle } from '../services/rate-limits';
import { severTies } from '../services/safety';
import type { HandlerTable, MutationPreCheck } from './context';

export const SAFETY_MESSAGES = {
  blockSelf: 'You cannot block yourself',
  userNotFound: 'User not found',
  pingNotFound: 'Ping not found',
  reportSelf: 'You cannot report yourself',
  reportOwnPing: 'You cannot report a ping you sent',
  pingNotFromUser: 'That ping was not sent by that person',
  reportIdTaken: 'This report id is already in use',
  reportNotFound: 'Report not found',
} as const;

export const ADMIN_ONLY = 'Access denied. Admin privileges required.';

export const safetyMutations: HandlerTable<
  'block.create' | 'block.delete' | 'report.create' | 'report.resolve'
> = {
  async 'block.create'({ trx, changes, me }, { userId }) {
    if (userId === me.id) throw badRequest(SAFETY_MESSAGES.blockSelf);
    const other = await findUserById(trx, userId);
    // Anyone who exists may be blocked, even someone who blocked you first: the answer is the
    // same either way, so it tells nothing.
    if (!other) throw notFound(SAFETY_MESSAGES.userNotFound);
    const user = toSummary(other);
    const existing = await findBlock(trx, me.id, userId);
    // Blocking twice (a second device, a retry without its key) is the same block.
    if (existing) return { status: 200, body: { userId, user, createdAt: existing.createdAt } };
    const createdAt = nowIso();
    await insertBlock(trx, me.id, userId, createdAt);
    await severTies(trx, changes, me.id, userId);
    return { status: 201, body: { userId, user, createdAt } };
  },

  async 'block.delete'({ trx, changes, me }, { userId }) {
    // Only the caller's own block goes; a block the other person made stays. Nothing that the
    // block ended comes back: friends ask each other again.
    const block = await findBlock(trx, me.id, userId);
    const wasBlocked = await deleteBlock(trx, me.id, userId);
    // Read marks the block kept from a sender may show again (loadPings): both devices fetch
    // those pings anew, so what they hold stays what a snapshot would say.
    if (block) {
      for (const id of await pingIdsReadSince(trx, me.id, userId, block.createdAt)) {
        await changes.record([me.id, userId], 'ping', id);
      }
    }
    return { body: { success: true, wasBlocked } };
  },

  async 'report.create'({ trx, me }, args) {
    if (args.id) {
      const existing = await findReport(trx, args.id);
      if (existing) {
        if (existing.reporterId !== me.id) throw conflict(SAFETY_MESSAGES.reportIdTaken);
        return { status: 200, body: toReport(existing) };
      }
    }
    let reportedUserId: string;
    if (args.pingId !== undefined) {
      // Only a ping the reporter sent or received, as everywhere else.
      const ping = await findPing(trx, args.pingId);
      if (!ping || (ping.senderId !== me.id && ping.receiverId !== me.id))
        throw notFound(SAFETY_MESSAGES.pingNotFound);
      if (ping.senderId === me.id) throw badRequest(SAFETY_MESSAGES.reportOwnPing);
      if (args.userId !== undefined && args.userId !== ping.senderId)
        throw badRequest(SAFETY_MESSAGES.pingNotFromUser);
      reportedUserId = ping.senderId;
    } else {
      reportedUserId = args.userId!;
      if (reportedUserId === me.id) throw badRequest(SAFETY_MESSAGES.reportSelf);
      const other = await findUserById(trx, reportedUserId);
      // Someone who blocked the reporter is as unknown to them as anywhere else.
      const theyBlockedMe = other ? await findBlock(trx, reportedUserId, me.id) : undefined;
      if (!other || theyBlockedMe) throw notFound(SAFETY_MESSAGES.userNotFound);
    }
    const row = await insertReport(trx, {
      id: args.id ?? uuidv7(),
      reporterId: me.id,
      reportedUserId,
      pingId: args.pingId ?? null,
      reason: args.reason,
      details: args.details ?? null,
      createdAt: nowIso(),
    });
    return { status: 201, body: toReport(row) };
  },

  async 'report.resolve'({ trx, me }, args) {
    if (me.isAdmin !== 1) throw forbidden(ADMIN_ONLY);
    const row = await findReport(trx, args.id);
    if (!row) throw notFound(SAFETY_MESSAGES.reportNotFound);
    // Resolving a resolved report (a second admin, a retry) keeps the first resolution.
    if (row.status === 'open') await resolveReport(trx, row.id, me.id, args.note ?? null, nowIso());
    const [report] = await listAdminReports(trx, { status: 'all', ids: [row.id] });
    return { body: report! };
  },
};

/** Every report counts against the reporter's budget, refused or not. */
export const reportThrottle: MutationPreCheck<'report.create'> = ({ trx, me, config }) =>
  throttle(trx, buckets.report(me.id), config.rateLimits.reportPerUser, 'Too many reports');
