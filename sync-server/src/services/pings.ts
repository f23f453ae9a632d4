/**
 * Sending pings: who may ping whom, the receiver's daily limit, and what a delivered ping
 * announces. Every function runs inside the caller's unit of work (db/unit-of-work.ts), so a rejection
 * (403, 404, 429) leaves nothing written, however many receivers a call names.
 */
import { displayName, uuidv7, type Ping, type UserSummary } from '@pingme/shared';
import { findPings, loadPings, newPingsAsSent } from '../db/pings';
import {
  insertPings,
  nthSentSince,
  sendTargetAndInsert,
  sendTargets,
  type NewPing,
  type PingContent,
  type SendTarget,
} from '../db/ping-sends';
import { findPrompt, isUsableBy } from '../db/prompts';
import { AppError, conflict, forbidden, notFound } from '../errors';
import type { Db } from '../db/connection';
import type { ChangeSet } from '../db/unit-of-work';

/**
 * The daily limit is a rolling window: a ping counts against the receiver's `rateLimitPerDay`
 * for 24 hours after it was sent (docs/decisions.md).
 */
export const RATE_WINDOW_MS = 24 * 3600_000;

export const ID_TAKEN = 'This id is already used by something else';

/** The prompt a sender may use (a default one or their own), as it reads now. */
export async function promptContent(
  trx: Db,
  senderId: string,
  promptId: string,
): Promise<PingContent> {
  const p = await findPrompt(trx, promptId);
  if (!p || !isUsableBy(p, senderId)) throw notFound('Prompt not found');
  return {
    kind: 'prompt',
    promptId: p.id,
    promptText: p.text,
    promptEmoji: p.emoji,
    customText: null,
    customEmoji: null,
    anchorId: null,
  };
}

/**
 * A create whose id already exists: the sender's own ping is answered as stored (a replay);
 * anyone else's id is a 409. Undefined when the id is new.
 */
export async function existingOwnPing(
  trx: Db,
  senderId: string,
  id: string,
): Promise<Ping | undefined> {
  const [row] = await findPings(trx, [id]);
  if (!row) return undefined;
  if (row.senderId !== senderId) throw conflict(ID_TAKEN);
  const [ping] = await loadPings(trx, senderId, [id]);
  return ping;
}

/**
 * Creates one ping per receiver, all or nothing: every receiver must be the sender's friend
 * (403) and under their own daily limit for this sender (429). Records a 'ping' change for
 * both people and announces each ping to its receiver after commit. Answers the pings in the
 * order of `receiverIds`.
 */
export async function sendPings(
  trx: Db,
  changes: ChangeSet,
  senderId: string,
  send: {
    receiverIds: string[];
    ids: string[];
    groupId: string | null;
    content: PingContent;
    /** When the sender wrote it, as their device says (kept only where earlier than now). */
    writtenAt?: string | undefined;
  },
): Promise<Ping[]> {
  const now = Date.now();
  const since = new Date(now - RATE_WINDOW_MS).toISOString();
  const createdAt = new Date(now).toISOString();
  const writtenAt = writtenBefore(send.writtenAt, createdAt);
  const rows: NewPing[] = send.receiverIds.map((receiverId, i) => ({
    id: send.ids[i] ?? uuidv7(),
    senderId,
    receiverId,
    groupId: send.groupId,
    createdAt,
    writtenAt,
    ...send.content,
  }));
  // The receivers, whether each is a friend, the daily counts and the sender: one query; for one
  // receiver on PostgreSQL the same statement inserts the ping if these checks pass.
  const { sender, receivers, inserted } =
    rows.length === 1
      ? await sendTargetAndInsert(trx, since, rows[0]!)
      : { ...(await sendTargets(trx, senderId, send.receiverIds, since)), inserted: undefined };
  if (send.receiverIds.some((id) => !receivers.get(id)?.isFriend)) {
    throw forbidden('You can only ping friends');
  }
  await enforceDailyLimits(trx, senderId, send.receiverIds, receivers, since, now);
  if ((inserted ?? (await insertPings(trx, rows))) < rows.length) throw conflict(ID_TAKEN);
  for (const r of rows) await changes.record([senderId, r.receiverId], 'ping', r.id, 'create');
  // The answer is what was just written (loadPings would read the same back).
  const people = new Map<string, UserSummary>();
  if (sender) people.set(senderId, sender);
  for (const r of receivers.values()) {
    people.set(r.id, {
      id: r.id,
      firstName: r.firstName,
      lastName: r.lastName,
      profileImageUrl: r.profileImageUrl,
    });
  }
  const pings = newPingsAsSent(rows, people);
  for (const p of pings) changes.newPing(p.receiverId, p);
  return pings;
}

/**
 * The time a device says the ping was written, kept only where it is earlier than the server's
 * own (`now`): a clock ahead of the server is not believed. Null when it says nothing or later.
 */
export function writtenBefore(deviceTime: string | undefined, now: string): string | null {
  if (deviceTime === undefined) return null;
  const t = Date.parse(deviceTime);
  const n = Date.parse(now);
  if (!Number.isFinite(t) || t >= n) return null;
  return new Date(t).toISOString();
}

/** Each receiver's limit counts this sender's pings to them in the last RATE_WINDOW_MS. */
async function enforceDailyLimits(
  trx: Db,
  senderId: string,
  receiverIds: string[],
  people: Map<string, SendTarget>,
  since: string,
  now: number,
) {
  for (const receiverId of receiverIds) {
    const person = people.get(receiverId);
    if (!person) throw forbidden('You can only ping friends');
    const limit = person.rateLimitPerDay;
    const count = person.sentSince;
    if (count + 1 <= limit) continue;
    // The count falls under the limit once the (count - limit)-th oldest ping leaves the window.
    const leaving = await nthSentSince(trx, senderId, receiverId, since, count - limit);
    const retryAfterMs = leaving ? Date.parse(leaving) + RATE_WINDOW_MS - now : RATE_WINDOW_MS;
    const name = person.firstName?.trim() || displayName(person);
    throw new AppError(
      429,
      'daily_limit_reached',
      `${name} has set a daily limit of ${limit} pings from each friend. Try again tomorrow.`,
      undefined,
      { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
    );
  }
}
