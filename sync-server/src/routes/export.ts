/**
 * GET /api/export, "Download My Data" (docs/api.md "Data export"): everything the caller owns or
 * received, read through the same views as the sync pull, as one JSON file (DataExport,
 * exportVersion 1).
 */
import type Router from '@koa/router';
import type {
  Anchor,
  DataExport,
  FriendUser,
  Mood,
  Moment,
  Ping,
  Prompt,
  SyncFriendship,
  SyncUser,
} from '@pingme/shared';
import type { AppDeps } from '../deps';
import type { Db } from '../db/connection';
import { subscriptionsOf, toInfo } from '../db/push-subscriptions';
import { currentUser, requireUser } from '../middleware/auth';
import { loadAllVisible } from '../sync/views';

export async function buildExport(db: Db, userId: string, now = new Date()): Promise<DataExport> {
  const [users, friendships, prompts, pings, moods, anchors, moments, subs] = await Promise.all([
    loadAllVisible<SyncUser>(db, userId, 'user'),
    loadAllVisible<SyncFriendship>(db, userId, 'friendship'),
    loadAllVisible<Prompt>(db, userId, 'prompt'),
    loadAllVisible<Ping>(db, userId, 'ping'),
    loadAllVisible<Mood>(db, userId, 'mood'),
    loadAllVisible<Anchor>(db, userId, 'anchor'),
    loadAllVisible<Moment>(db, userId, 'moment'),
    subscriptionsOf(db, userId),
  ]);
  const self = users.find((u) => u.relation === 'self');
  if (!self) throw new Error('the signed-in person is not visible to themself');
  const { relation: _self, ...user } = self;
  const friends = users.flatMap((u): FriendUser[] => {
    if (u.relation !== 'friend') return [];
    const { relation: _friend, ...friend } = u;
    return [friend];
  });
  const pending = friendships.filter((f) => f.status === 'pending');
  return {
    exportVersion: 1,
    exportedAt: now.toISOString(),
    user,
    settings: {
      profileVisibility: user.profileVisibility,
      quietHoursStart: user.quietHoursStart,
      quietHoursEnd: user.quietHoursEnd,
      rateLimitPerDay: user.rateLimitPerDay,
      onboardingCompleted: user.onboardingCompleted,
      onboardingStep: user.onboardingStep,
    },
    friends,
    friendRequests: {
      sent: pending.filter((f) => f.direction === 'sent'),
      received: pending.filter((f) => f.direction === 'received'),
    },
    prompts,
    pings: {
      sent: pings.filter((p) => p.senderId === userId),
      received: pings.filter((p) => p.receiverId === userId),
    },
    reactions: pings.flatMap((p) => p.reactions.filter((r) => r.userId === userId)),
    moods: {
      shared: moods.filter((m) => m.userId === userId),
      received: moods.filter((m) => m.friendId === userId),
    },
    anchors,
    moments,
    pushSubscriptions: subs.map(toInfo),
  };
}

export function exportRoutes(router: Router, { db }: AppDeps): void {
  router.get('/api/export', requireUser(db), async (ctx) => {
    const data = await buildExport(db, currentUser(ctx).id);
    const day = data.exportedAt.slice(0, 10);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="pingme-export-${day}.json"`);
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify(data, null, 2);
  });
}
