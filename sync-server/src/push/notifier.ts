/**
 * Web Push (docs/sync.md, "Web Push"): a delivered ping or an anchor request becomes a push to
 * each of the receiver's subscribed devices. The push is written as a job in the transaction of
 * the write that causes it (db/push-jobs.ts); once that commits, this node claims its jobs and a
 * small pool sends them, each send with a short timeout, so a slow push service never slows a
 * request. With several nodes each job goes out once, and a job whose node died before sending
 * it is claimed by another (the sweep every few seconds). A push is a hint (guarantee 10): losing
 * or repeating one loses or repeats nothing, because the device pulls the real state when it
 * wakes.
 */
import { randomUUID } from 'node:crypto';
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
  claimOrphanPushJobs,
  claimPushJobs,
  deletePushJob,
  deleteStalePushJobs,
  releasePushJobs,
  insertPushJobs,
  type PushJobRow,
} from '../db/push-jobs';
import type { ChangeSet } from '../db/unit-of-work';
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
  /** Its row in push_jobs, deleted once it is sent. */
  jobId?: string;
}

/** How long a node's claim on a job lasts (at least): well past PUSH_TIMEOUT_MS. */
const CLAIM_MS = 30_000;
/** How often each node looks for jobs nobody sent, and how old an unclaimed one must be. */
const SWEEP_MS = 5_000;
const ORPHAN_AFTER_MS = 3_000;
/** A job this old is no longer worth a push. */
const STALE_AFTER_MS = 3600_000;

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
    deps.events.addBeforeCommit(this.writeJobs);
    deps.events.on('pushJobs', this.onJobs);
    deps.events.on('subscriptionsChanged', this.onSubscriptionsChanged);
  }

  private subscribers = new Set<string>();
  private refreshTimer: ReturnType<typeof setInterval> | undefined;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  /** Claims under way (idle() waits for them too). */
  private claiming = 0;
  private get claimMs() {
    return Math.max(CLAIM_MS, 3 * this.deps.config.push.timeoutMs);
  }

  /** Reads who has a subscription, and keeps reading it (server.ts awaits this before listening). */
  async start(): Promise<void> {
    await this.refreshSubscribers();
    this.refreshTimer = setInterval(() => void this.refreshSubscribers(), SUBSCRIBERS_REFRESH_MS);
    this.refreshTimer.unref();
    this.sweepTimer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
  }

  /** Another node said these people's subscriptions changed (realtime/bus.ts). */
  recheckAll(userIds: string[]): void {
    for (const id of userIds) void this.recheck(id);
  }

  /**
   * In the transaction of each write: a job for each delivered ping and anchor request whose
   * receiver has a subscription (the rest cost nothing).
   */
  private readonly writeJobs = async (trx: Db, sets: readonly ChangeSet[]) => {
    const rows: { id: string; receiverId: string; job: string; createdAt: number }[] = [];
    const now = Date.now();
    for (const set of sets) {
      const jobs = [
        ...set.newPings.map(([receiverId, ping]) => this.pingJob(receiverId, ping)),
        ...set.anchorRequests.map(([receiverId, anchor]) => this.anchorJob(receiverId, anchor)),
      ];
      for (const job of jobs) {
        if (!job) continue;
        const id = randomUUID();
        rows.push({ id, receiverId: job.receiverId, job: JSON.stringify(job), createdAt: now });
        set.pushJobs.push(id);
      }
    }
    await insertPushJobs(trx, rows);
  };

  /** After the commit: this node's own jobs, claimed and sent at once. */
  private readonly onJobs = (ids: string[]) => {
    if (this.stop.signal.aborted) return;
    this.claiming += 1;
    claimPushJobs(this.deps.db, ids, Date.now() + this.claimMs)
      .then((rows) => this.take(rows))
      .catch((err: unknown) => logger.error({ err }, 'push: could not claim jobs'))
      .finally(() => {
        this.claiming -= 1;
        this.wakeIdle();
      });
  };

  /** Jobs no node sent (it died, or its claim ran out): claimed here, each by one node. */
  async sweep(now = Date.now()): Promise<number> {
    if (this.stop.signal.aborted) return 0;
    this.claiming += 1;
    try {
      await deleteStalePushJobs(this.deps.db, now - STALE_AFTER_MS);
      const rows = await claimOrphanPushJobs(
        this.deps.db,
        now,
        now - ORPHAN_AFTER_MS,
        now + this.claimMs,
        50,
      );
      this.take(rows);
      return rows.length;
    } catch (err) {
      logger.error({ err }, 'push: the sweep for unsent jobs failed');
      return 0;
    } finally {
      this.claiming -= 1;
      this.wakeIdle();
    }
  }

  private take(rows: PushJobRow[]) {
    for (const row of rows) {
      try {
        this.enqueue({ ...(JSON.parse(row.job) as PushJob), jobId: row.id });
      } catch (err) {
        logger.error({ err }, 'push: unreadable job dropped');
        void deletePushJob(this.deps.db, row.id).catch(() => undefined);
      }
    }
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

  private pingJob(receiverId: string, ping: Ping): PushJob | undefined {
    if (!this.subscribers.has(receiverId)) return undefined;
    try {
      const { kind, ...payload } = pingPayload(ping);
      return {
        receiverId,
        payload,
        ignoresQuietHours: kind === 'anchor',
        urgency: kind === 'anchor' ? 'high' : 'normal',
      };
    } catch (err) {
      logger.error({ err }, 'push: cannot describe ping');
      return undefined;
    }
  }

  private anchorJob(receiverId: string, anchor: Anchor): PushJob | undefined {
    if (!this.subscribers.has(receiverId)) return undefined;
    try {
      return {
        receiverId,
        payload: anchorRequestPayload(anchor),
        ignoresQuietHours: false,
        urgency: 'normal',
      };
    } catch (err) {
      logger.error({ err }, 'push: cannot describe anchor request');
      return undefined;
    }
  }

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

  /** Resolves once nothing is claimed, queued or being sent (tests, graceful shutdown). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle() {
    return this.active === 0 && this.queue.length === 0 && this.claiming === 0;
  }

  private wakeIdle() {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Jobs claimed but not sent stay in the table: another node (or this one, restarted) sends them. */
  async close(): Promise<void> {
    this.deps.events.off('pushJobs', this.onJobs);
    this.deps.events.off('subscriptionsChanged', this.onSubscriptionsChanged);
    clearInterval(this.refreshTimer);
    clearInterval(this.sweepTimer);
    // Claimed but not started: given back, so another node sends them at its next sweep.
    const unsent = this.queue.flatMap((j) => (j.jobId ? [j.jobId] : []));
    this.queue.length = 0;
    await releasePushJobs(this.deps.db, unsent).catch(() => undefined);
    this.stop.abort();
    await this.idle();
  }

  private pump() {
    while (this.active < CONCURRENCY && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.active += 1;
      this.run(job)
        .then(() => (job.jobId ? deletePushJob(this.deps.db, job.jobId) : undefined))
        .catch((err: unknown) => logger.error({ err }, 'push failed'))
        .finally(() => {
          this.active -= 1;
          this.pump();
          this.wakeIdle();
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
