/**
 * The time a ping card shows (docs/decisions.md, "When a ping was written"): the time the person
 * wrote it and the time it reached the server are both kept; one time is shown while they are
 * close, both once they differ by more than a minute ("Written 2h ago · arrived just now").
 */
import { relativeTime, type Ping } from '@pingme/shared';

/** Apart by more than this, the written and arrived times are both shown. */
export const WRITTEN_APART_MS = 60_000;

export type PingTimes =
  | { kind: 'one'; at: string; text: string }
  | { kind: 'both'; writtenAt: string; written: string; arrivedAt: string; arrived: string };

export function pingTimes(ping: Pick<Ping, 'createdAt' | 'writtenAt'>, now: number): PingTimes {
  const arrivedAt = ping.createdAt;
  // Older rows have no writtenAt: written when it arrived.
  const writtenAt = ping.writtenAt ?? arrivedAt;
  const apart = Date.parse(arrivedAt) - Date.parse(writtenAt);
  if (!(apart > WRITTEN_APART_MS)) {
    return { kind: 'one', at: writtenAt, text: relativeTime(writtenAt, now, 'ping') };
  }
  return {
    kind: 'both',
    writtenAt,
    written: `Written ${relativeTime(writtenAt, now, 'ping')}`,
    arrivedAt,
    arrived: `arrived ${relativeTime(arrivedAt, now, 'ping')}`,
  };
}
