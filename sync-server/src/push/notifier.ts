/**
 * Web Push (docs/sync.md, "Web Push"): a delivered ping or an anchor request becomes a push to
 * each of the receiver's subscribed devices. The change events only queue work; a small pool
 * sends it, each send with a short timeout, so a slow push service never slows a request.
 * A push is a hint (guarantee 10): losing or repeating one loses or repeats nothing, because
 * the device pulls the real state when it wakes.
 */
import {
  displayName,
  isWithinQuietHours,
  type Anchor,
  type Ping,
  type PushPayload,
} from '@pingme/shared';
import webpush from 'web-push';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import {
  deleteSubscriptionById,
  hasSubscription,
  subscriptionsOf,
  usersWithSubscriptions,
  type PushSubscriptionRow,
} from '../db/push-subscriptions';
import { findUserById } from '../db/users';
import { logger } from '../logger';
import type { Metrics, PushOutcome } from '../metrics';
import type { ChangeEvents } from '../realtime/events';

export interface PushJob {
  receiverId: string;
  payload: PushPayload;
  /** Anchor pings are what quiet hours are for: they get through. */
  ignoresQuietHours: boolean;
  urgency: 'normal' | 'high';
}

const TTL_SECONDS = 24 * 3600;
/**
 * Who has a subscription is kept in memory (most people have none, and each of their pings would
 * otherwise cost a query); it is read again this often, for subscriptions made elsewhere.
 */
const SUBSCRIBERS_REFRESH_MS = 60_000;
const CONCURRENCY = 4;
/** Beyond this many waiting pushes the oldest are dropped (a push is only a hint). */
const MAX_QUEUE = 1000;

function firstNameOf(person: { firstName?: string | null; lastName?: string | null }) {
  return person.firstName?.trim() || displayName(person);
}

export function pingPayload(p: Ping): PushJob['payload'] & { kind: string } {
  return {
    title: `New Ping from ${firstNameOf(p.sender)}!`,
    body: p.prompt?.text ?? p.customText ?? '',
    url: '/',
    tag: `ping_${p.id}`,
    pingId: p.id,
    kind: p.kind,
  };
}

export function anchorRequestPayload(a: Anchor): PushPayload {
  return {
    title: `${firstNameOf(a.user)} asked you for an anchor ping`,
    body: a.text,
    url: '/',
    // The same id the notifications list marks as viewed (spec: anchor_request_{id}).
    tag: `anchor_request_${a.id}`,
    anchorId: a.id,
  };
}

/** Minutes since local midnight: quiet hours are in the server's time zone (docs/decisions.md). */
export function localMinutesOfDay(now: Date): number {
  return now.getHours() * 60 + now.getMinutes();
}

export class PushNotifier {
  private readonly queue: PushJob[] = [];
  private active = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly stop = new AbortController();

  constructor(
    private readonly deps: { db: Db; config: Config; events: ChangeEvents; metrics?: Metrics },
    private readonly now: () => Date = () => new Date(),
  ) {
    const { publicKey, privateKey, subject } = deps.config.vapid;
    // Fails at start, not at the first push, when configured keys are malformed.
    webpush.getVapidHeaders('https://push.example', subject, publicKey, privateKey, 'aes128gcm');
    deps.events.on('newPing', this.onNewPing);
    deps.events.on('anchorRequest', this.onAnchorRequest);
    deps.events.on('subscriptionsChanged', this.onSubscriptionsChanged);
  }

  private subscribers = new Set<string>();
  private refreshTimer: ReturnType<typeof setInterval> | undefined;

  /** Reads who has a subscription, and keeps reading it (server.ts awaits this before listening). */
  async start(): Promise<void> {
    await this.refreshSubscribers();
    this.refreshTimer = setInterval(() => void this.refreshSubscribers(), SUBSCRIBERS_REFRESH_MS);
    this.refreshTimer.unref();
  }

  /** Reads who has a subscription again (on a timer; tests call it). */
  async refreshSubscribers(): Promise<void> {
    try {
      this.subscribers = new Set(await usersWithSubscriptions(this.deps.db));
    } catch (err) {
      logger.error({ err }, 'push: could not read who has subscriptions');
    }
  }

  private readonly onSubscriptionsChanged = (added: string[], others: string[]) => {
    for (const id of added) this.subscribers.add(id);
    for (const id of others) void this.recheck(id);
  };

  private async recheck(userId: string): Promise<void> {
    try {
      if (await hasSubscription(this.deps.db, userId)) this.subscribers.add(userId);
      else this.subscribers.delete(userId);
    } catch (err) {
      logger.error({ err }, 'push: could not check a subscription');
    }
  }

  private readonly onNewPing = (receiverId: string, ping: Ping) => {
    if (!this.subscribers.has(receiverId)) return;
    try {
      const { kind, ...payload } = pingPayload(ping);
      this.enqueue({
        receiverId,
        payload,
        ignoresQuietHours: kind === 'anchor',
        urgency: kind === 'anchor' ? 'high' : 'normal',
      });
    } catch (err) {
      logger.error({ err }, 'push: cannot describe ping');
    }
  };

  private readonly onAnchorRequest = (receiverId: string, anchor: Anchor) => {
    if (!this.subscribers.has(receiverId)) return;
    try {
      this.enqueue({
        receiverId,
        payload: anchorRequestPayload(anchor),
        ignoresQuietHours: false,
        urgency: 'normal',
      });
    } catch (err) {
      logger.error({ err }, 'push: cannot describe anchor request');
    }
  };

  /** Queues a push; returns at once. */
  enqueue(job: PushJob) {
    if (this.stop.signal.aborted) return;
    if (this.queue.length >= MAX_QUEUE) {
      this.queue.shift();
      this.count('dropped');
      logger.warn('push: queue full, dropped the oldest push');
    }
    this.queue.push(job);
    this.pump();
  }

  /** Resolves once nothing is queued or being sent (tests, graceful shutdown). */
  idle(): Promise<void> {
    if (this.active === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.deps.events.off('newPing', this.onNewPing);
    this.deps.events.off('anchorRequest', this.onAnchorRequest);
    this.deps.events.off('subscriptionsChanged', this.onSubscriptionsChanged);
    clearInterval(this.refreshTimer);
    this.queue.length = 0;
    this.stop.abort();
    await this.idle();
  }

  private pump() {
    while (this.active < CONCURRENCY && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.active += 1;
      this.run(job)
        .catch((err: unknown) => logger.error({ err }, 'push failed'))
        .finally(() => {
          this.active -= 1;
          this.pump();
          if (this.active === 0 && this.queue.length === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const w of waiters) w();
          }
        });
    }
  }

  private async run(job: PushJob) {
    const { db } = this.deps;
    // Most people have no push subscription: then there is nothing to send and nothing more to
    // read (the person's quiet hours only matter when a device would be woken).
    const subs = await subscriptionsOf(db, job.receiverId);
    if (subs.length === 0) {
      this.subscribers.delete(job.receiverId);
      return;
    }
    const user = await findUserById(db, job.receiverId);
    if (!user) return;
    if (
      !job.ignoresQuietHours &&
      isWithinQuietHours(user.quietHoursStart, user.quietHoursEnd, localMinutesOfDay(this.now()))
    ) {
      this.count('quiet_hours');
      return;
    }
    const body = JSON.stringify(job.payload);
    await Promise.all(subs.map((s) => this.deliver(s, body, job.urgency)));
  }

  private async deliver(sub: PushSubscriptionRow, body: string, urgency: PushJob['urgency']) {
    const { config, db } = this.deps;
    if (!config.push.allowHttpEndpoints && !sub.endpoint.startsWith('https://')) return;
    let request: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      // Encrypts the payload for this device (RFC 8291, aes128gcm) and signs a VAPID JWT.
      request = webpush.generateRequestDetails(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        body,
        {
          vapidDetails: config.vapid,
          TTL: TTL_SECONDS,
          urgency,
          contentEncoding: 'aes128gcm',
        },
      );
    } catch (err) {
      logger.warn(
        { subscription: sub.id, reason: (err as Error).message },
        'push: unusable subscription removed',
      );
      this.count('invalid_subscription');
      await deleteSubscriptionById(db, sub.id);
      await this.recheck(sub.userId);
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers)
        .filter(([k]) => k.toLowerCase() !== 'content-length')
        .map(([k, v]) => [k, String(v)]),
    );
    let status: number;
    try {
      const res = await fetch(request.endpoint, {
        method: request.method,
        headers,
        body: request.body,
        redirect: 'error',
        signal: AbortSignal.any([this.stop.signal, AbortSignal.timeout(config.push.timeoutMs)]),
      });
      status = res.status;
      await res.body?.cancel();
    } catch (err) {
      if (!this.stop.signal.aborted) {
        logger.warn(
          { host: hostOf(sub.endpoint), reason: (err as Error).message },
          'push: no answer from push service',
        );
      }
      this.count('failed');
      return;
    }
    // The browser unsubscribed or the subscription expired: it will never work again.
    if (status === 404 || status === 410) {
      this.count('gone');
      await deleteSubscriptionById(db, sub.id);
      await this.recheck(sub.userId);
    } else if (status >= 400) {
      this.count('refused');
      logger.warn({ status, host: hostOf(sub.endpoint) }, 'push: push service answered');
    } else {
      this.count('sent');
    }
  }

  private count(outcome: PushOutcome) {
    this.deps.metrics?.push(outcome);
  }
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '?';
  }
}
