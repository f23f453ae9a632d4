/**
 * Block and report (docs/api.md "Safety", docs/security.md "Blocking" and "Reports").
 * A block ends everything between the two people in one transaction and hides each from the
 * other; what the blocked person gets from then on is exactly what a stranger gets, never a
 * word about the block. Reports are stored for admins, who list and resolve them.
 */
import Router from '@koa/router';
import {
  AdminReportsQuery,
  BlockBody,
  BlockParams,
  IdParams,
  ReportBody,
  ResolveReportBody,
  uuidv7,
  type AdminReport,
  type BlockedPerson,
  type Report,
  type UnblockResponse,
} from '@pingme/shared';
import type { AppDeps } from '../app';
import { deleteBlock, findBlock, insertBlock, listBlocked } from '../db/blocks';
import { nowIso } from '../db/connection';
import { findPing, pingIdsReadSince } from '../db/pings';
import { findReport, insertReport, listAdminReports, resolveReport, toReport } from '../db/reports';
import { findUserById, toSummary } from '../db/users';
import { badRequest, conflict, notFound } from '../errors';
import { currentUser, requireAdmin, requireUser } from '../middleware/auth';
import { mutate } from '../middleware/idempotency';
import { input, validate } from '../middleware/validate';
import { buckets, throttle } from '../services/rate-limits';
import { severTies } from '../services/safety';

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

export function safetyRoutes({ db, config }: AppDeps): Router {
  const router = new Router({ prefix: '/api' });
  const signedIn = requireUser(db);

  // ---------- blocks ----------

  router.get('/blocks', signedIn, async (ctx) => {
    ctx.body = (await listBlocked(db, currentUser(ctx).id)) satisfies BlockedPerson[];
  });

  router.post('/blocks', signedIn, validate({ body: BlockBody }), async (ctx) => {
    const me = currentUser(ctx).id;
    const { userId } = input<BlockBody>(ctx).body;
    if (userId === me) throw badRequest(SAFETY_MESSAGES.blockSelf);
    await mutate<BlockedPerson>(ctx, db, async (trx, feed) => {
      const other = await findUserById(trx, userId);
      // Anyone who exists may be blocked, even someone who blocked you first: the answer is
      // the same either way, so it tells nothing.
      if (!other) throw notFound(SAFETY_MESSAGES.userNotFound);
      const user = toSummary(other);
      const existing = await findBlock(trx, me, userId);
      // Blocking twice (a second device, a retry without its key) is the same block.
      if (existing) return { status: 200, body: { userId, user, createdAt: existing.createdAt } };
      const createdAt = nowIso();
      await insertBlock(trx, me, userId, createdAt);
      await severTies(trx, feed, me, userId);
      return { status: 201, body: { userId, user, createdAt } };
    });
  });

  router.delete('/blocks/:userId', signedIn, validate({ params: BlockParams }), async (ctx) => {
    const me = currentUser(ctx).id;
    const { userId } = input<unknown, unknown, BlockParams>(ctx).params;
    await mutate<UnblockResponse>(ctx, db, async (trx, feed) => {
      // Only the caller's own block goes; a block the other person made stays. Nothing that
      // the block ended comes back: friends ask each other again.
      const block = await findBlock(trx, me, userId);
      const wasBlocked = await deleteBlock(trx, me, userId);
      // Read marks the block kept from a sender may show again (loadPings): both devices
      // fetch those pings anew, so what they hold stays what a snapshot would say.
      if (block) {
        for (const id of await pingIdsReadSince(trx, me, userId, block.createdAt)) {
          await feed.record([me, userId], 'ping', id);
        }
      }
      return { body: { success: true, wasBlocked } };
    });
  });

  // ---------- reports ----------

  router.post('/reports', signedIn, validate({ body: ReportBody }), async (ctx) => {
    const me = currentUser(ctx).id;
    const { body } = input<ReportBody>(ctx);
    await throttle(db, buckets.report(me), config.rateLimits.reportPerUser, 'Too many reports');
    await mutate<Report>(ctx, db, async (trx) => {
      if (body.id) {
        const existing = await findReport(trx, body.id);
        if (existing) {
          if (existing.reporterId !== me) throw conflict(SAFETY_MESSAGES.reportIdTaken);
          return { status: 200, body: toReport(existing) };
        }
      }
      let reportedUserId: string;
      if (body.pingId !== undefined) {
        // Only a ping the reporter sent or received, as everywhere else.
        const ping = await findPing(trx, body.pingId);
        if (!ping || (ping.senderId !== me && ping.receiverId !== me))
          throw notFound(SAFETY_MESSAGES.pingNotFound);
        if (ping.senderId === me) throw badRequest(SAFETY_MESSAGES.reportOwnPing);
        if (body.userId !== undefined && body.userId !== ping.senderId)
          throw badRequest(SAFETY_MESSAGES.pingNotFromUser);
        reportedUserId = ping.senderId;
      } else {
        reportedUserId = body.userId!;
        if (reportedUserId === me) throw badRequest(SAFETY_MESSAGES.reportSelf);
        const other = await findUserById(trx, reportedUserId);
        // Someone who blocked the reporter is as unknown to them as anywhere else.
        const theyBlockedMe = other ? await findBlock(trx, reportedUserId, me) : undefined;
        if (!other || theyBlockedMe) throw notFound(SAFETY_MESSAGES.userNotFound);
      }
      const row = await insertReport(trx, {
        id: body.id ?? uuidv7(),
        reporterId: me,
        reportedUserId,
        pingId: body.pingId ?? null,
        reason: body.reason,
        details: body.details ?? null,
        createdAt: nowIso(),
      });
      return { status: 201, body: toReport(row) };
    });
  });

  // ---------- admin ----------

  const admin = [signedIn, requireAdmin()];

  router.get('/admin/reports', ...admin, validate({ query: AdminReportsQuery }), async (ctx) => {
    const { query } = input<unknown, AdminReportsQuery>(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await listAdminReports(db, { status: query.status })) satisfies AdminReport[];
  });

  router.patch(
    '/admin/reports/:id',
    ...admin,
    validate({ params: IdParams, body: ResolveReportBody }),
    async (ctx) => {
      const me = currentUser(ctx).id;
      const { body, params } = input<ResolveReportBody, unknown, { id: string }>(ctx);
      await mutate<AdminReport>(ctx, db, async (trx) => {
        const row = await findReport(trx, params.id);
        if (!row) throw notFound(SAFETY_MESSAGES.reportNotFound);
        // Resolving a resolved report (a second admin, a retry) keeps the first resolution.
        if (row.status === 'open')
          await resolveReport(trx, row.id, me, body.note ?? null, nowIso());
        const [report] = await listAdminReports(trx, { status: 'all', ids: [row.id] });
        return { body: report! };
      });
    },
  );

  return router;
}
