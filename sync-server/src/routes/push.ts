/**
 * Web Push subscriptions (docs/api.md "Web Push"): the VAPID public key the browser subscribes
 * with, and each device's subscription, owned by the signed-in person.
 */
import type Router from '@koa/router';
import {
  PushSubscribeBody,
  PushUnsubscribeBody,
  type PushSubscriptionInfo,
  type VapidPublicKeyResponse,
} from '@pingme/shared';
import type { AppDeps } from '../deps';
import {
  deleteOwnSubscription,
  findSubscriptionByEndpoint,
  toInfo,
  upsertSubscription,
} from '../db/push-subscriptions';
import { badRequest, conflict, notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { keyed, mutate } from '../middleware/idempotency';
import { jsonBody } from '../middleware/body';
import { validated } from '../middleware/validate';

export const PUSH_ENDPOINT_TAKEN = 'This push endpoint is registered to another subscription';

/** The app parses bodies of POST, PUT and PATCH only; this DELETE carries one too. */
const deleteBody = jsonBody(8 * 1024, ['DELETE']);

function decodedLength(b64url: string): number {
  return /^[A-Za-z0-9_-]+={0,2}$/.test(b64url) ? Buffer.from(b64url, 'base64url').length : -1;
}

export function pushRoutes(router: Router, { db, config }: AppDeps): void {
  // Idempotency-Key on every write here (docs/sync.md, guarantee 2).
  const keyedByHeader = keyed(db);
  const signedIn = requireUser(db);

  router.get('/api/push/vapid-public-key', (ctx) => {
    ctx.body = { publicKey: config.vapid.publicKey } satisfies VapidPublicKeyResponse;
  });

  router.post(
    '/api/push/subscribe',
    keyedByHeader,
    signedIn,
    validated({ body: PushSubscribeBody }, async (ctx, { body }) => {
      const me = currentUser(ctx).id;
      if (!config.push.allowHttpEndpoints && !body.endpoint.startsWith('https://')) {
        throw badRequest('Push endpoints must use https');
      }
      // An uncompressed P-256 point and a 16-byte secret, as PushSubscription.getKey() gives them.
      const key = Buffer.from(body.keys.p256dh, 'base64url');
      if (decodedLength(body.keys.p256dh) !== 65 || key[0] !== 4) {
        throw badRequest('keys.p256dh must be the subscription’s P-256 public key (base64url)');
      }
      if (decodedLength(body.keys.auth) !== 16) {
        throw badRequest('keys.auth must be the subscription’s 16-byte secret (base64url)');
      }
      let previousOwner: string | undefined;
      await mutate(ctx, db, async ({ trx }) => {
        // A browser that changes hands keeps its subscription, keys and all: another person may
        // take an endpoint over only with its keys. The URL alone (which leaks more easily than
        // the browser's secret) cannot silence someone's notifications.
        const existing = await findSubscriptionByEndpoint(trx, body.endpoint);
        if (
          existing &&
          existing.userId !== me &&
          (existing.p256dh !== body.keys.p256dh || existing.auth !== body.keys.auth)
        ) {
          throw conflict(PUSH_ENDPOINT_TAKEN);
        }
        const { row, created } = await upsertSubscription(trx, {
          userId: me,
          endpoint: body.endpoint,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          deviceId: body.deviceId ?? null,
        });
        previousOwner = existing && existing.userId !== me ? existing.userId : undefined;
        return { status: created ? 201 : 200, body: toInfo(row) satisfies PushSubscriptionInfo };
      });
      ctx.events.emit('subscriptionsChanged', [me], previousOwner ? [previousOwner] : []);
    }),
  );

  router.delete(
    '/api/push/subscribe',
    signedIn,
    // The body is read once the session is known (docs/security.md), then keyed by it.
    deleteBody,
    keyedByHeader,
    validated({ body: PushUnsubscribeBody }, async (ctx, { body }) => {
      const me = currentUser(ctx).id;
      await mutate(ctx, db, async ({ trx }) => {
        // Someone else's endpoint gets the same answer as an unknown one.
        if (!(await deleteOwnSubscription(trx, me, body.endpoint))) {
          throw notFound('Push subscription not found');
        }
        return { body: { success: true as const } };
      });
      ctx.events.emit('subscriptionsChanged', [], [me]);
    }),
  );
}
