/**
 * Friendship energy entries (docs/energy.md): the signals come from db/energy.ts, the formula from
 * shared/src/energy.ts. Reads answer the stored snapshot when there is one and compute the rest on
 * the spot without storing; a refresh recomputes and stores every friend's snapshot.
 */
import {
  ENERGY_LEVELS,
  ENERGY_WINDOWS,
  EnergyMetrics,
  displayName,
  energyFromMetrics,
  energyTips,
  streakDaysFrom,
  utcDay,
  type EnergyEntry,
  type EnergyLevel,
  type UserSummary,
} from '@pingme/shared';
import type { Db } from '../db/connection';
import {
  contactDaysSince,
  friendSummaries,
  loadSnapshots,
  moodsSharedSince,
  pingsExchangedSince,
  reactedShareSince,
  upsertSnapshots,
  type EnergySnapshotRow,
} from '../db/energy';

const DAY_MS = 86_400_000;
/** How far back a streak is counted; longer streaks show as this many days. */
export const STREAK_LOOKBACK_DAYS = 365;

const since = (now: number, days: number) => new Date(now - days * DAY_MS).toISOString();

/** The metrics of each of `friends` with `me`, computed now. */
async function computeMetrics(
  db: Db,
  me: string,
  friends: UserSummary[],
  now: number,
  only?: string,
): Promise<Map<string, EnergyMetrics>> {
  const today = utcDay(now);
  const streakStart = `${utcDay(now - STREAK_LOOKBACK_DAYS * DAY_MS)}T00:00:00.000Z`;
  const [exchanged, reacted, moods, days] = await Promise.all([
    pingsExchangedSince(db, me, since(now, ENERGY_WINDOWS.pingFrequencyDays), only),
    reactedShareSince(db, me, since(now, ENERGY_WINDOWS.responseRateDays), only),
    moodsSharedSince(db, me, since(now, ENERGY_WINDOWS.moodDays), only),
    contactDaysSince(db, me, streakStart, only),
  ]);
  const out = new Map<string, EnergyMetrics>();
  for (const f of friends) {
    const r = reacted.get(f.id);
    out.set(f.id, {
      pingFrequency: exchanged.get(f.id) ?? 0,
      responseRate: r && r.received ? Math.round((100 * r.reacted) / r.received) : 0,
      moodSharingCount: moods.get(f.id) ?? 0,
      streakDays: streakDaysFrom(days.get(f.id) ?? [], today),
    });
  }
  return out;
}

function entry(
  friend: UserSummary,
  metrics: EnergyMetrics,
  computedAt: string,
  stored?: { score: number; level: EnergyLevel },
): EnergyEntry {
  const fresh = energyFromMetrics(metrics);
  const score = stored?.score ?? fresh.energyScore;
  return {
    friendId: friend.id,
    friend,
    energyScore: score,
    energyLevel: stored?.level ?? fresh.energyLevel,
    metrics,
    tips: stored ? energyTips(metrics, score) : fresh.tips,
    computedAt,
  };
}

/** A stored snapshot as an entry, or undefined when it cannot be read back. */
function fromSnapshot(friend: UserSummary, s: EnergySnapshotRow): EnergyEntry | undefined {
  let metrics: unknown;
  try {
    metrics = JSON.parse(s.metrics);
  } catch {
    return undefined;
  }
  const parsed = EnergyMetrics.safeParse(metrics);
  const level = ENERGY_LEVELS.find((l) => l === s.level);
  if (!parsed.success || !level || s.score < 0 || s.score > 100) return undefined;
  return entry(friend, parsed.data, s.computedAt, { score: s.score, level });
}

/** Highest energy first, then by name, then id: a stable order for the Overview list. */
function sortEntries(entries: EnergyEntry[]): EnergyEntry[] {
  return entries.sort(
    (a, b) =>
      b.energyScore - a.energyScore ||
      displayName(a.friend).localeCompare(displayName(b.friend)) ||
      a.friendId.localeCompare(b.friendId),
  );
}

/**
 * One entry per friend (or only `only`, when that person is a friend): the stored snapshot where
 * there is one, computed now otherwise.
 */
export async function readEnergy(db: Db, me: string, only?: string): Promise<EnergyEntry[]> {
  const friends = await friendSummaries(db, me, only);
  if (friends.length === 0) return [];
  const snapshots = await loadSnapshots(db, me, only);
  const out: EnergyEntry[] = [];
  const missing: UserSummary[] = [];
  for (const f of friends) {
    const s = snapshots.get(f.id);
    const e = s && fromSnapshot(f, s);
    if (e) out.push(e);
    else missing.push(f);
  }
  if (missing.length) {
    const now = Date.now();
    const metrics = await computeMetrics(db, me, missing, now, only);
    const at = new Date(now).toISOString();
    for (const f of missing) out.push(entry(f, metrics.get(f.id)!, at));
  }
  return sortEntries(out);
}

/** Recomputes every friend's entry now and stores the snapshots (in the caller's transaction). */
export async function refreshEnergy(db: Db, me: string): Promise<EnergyEntry[]> {
  const friends = await friendSummaries(db, me);
  if (friends.length === 0) return [];
  const now = Date.now();
  const at = new Date(now).toISOString();
  const metrics = await computeMetrics(db, me, friends, now);
  const entries = friends.map((f) => entry(f, metrics.get(f.id)!, at));
  await upsertSnapshots(
    db,
    entries.map((e) => ({
      userId: me,
      friendId: e.friendId,
      score: e.energyScore,
      level: e.energyLevel,
      metrics: JSON.stringify(e.metrics),
      computedAt: at,
    })),
  );
  return sortEntries(entries);
}
