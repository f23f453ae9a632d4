/**
 * Counts the screens need over a long history, answered from indexes (no row is read), so they
 * cost the same with 5,000 pings as with 5 (docs/performance.md, "Device").
 */
import type { Ping } from '@pingme/shared';
import Dexie from 'dexie';
import { db } from './index';

/**
 * The newest `limit` pings on the device, sent or received: the last entries of the createdAt
 * index read backwards, so equal times come in descending id (UUIDv7: the later one first).
 */
export async function latestPings(limit: number): Promise<Ping[]> {
  return db.pings.orderBy('createdAt').reverse().limit(limit).toArray();
}

/** Received pings not yet read: all received minus the read ones (those with a readAt). */
export async function unreadReceivedCount(meId: string): Promise<number> {
  const [received, read] = await Promise.all([
    db.pings.where('receiverId').equals(meId).count(),
    db.pings
      .where('[receiverId+readAt]')
      .between([meId, Dexie.minKey], [meId, Dexie.maxKey], true, true)
      .count(),
  ]);
  return received - read;
}

/** Every ping the person received, newest first (the [receiverId+createdAt] index, backwards). */
export async function receivedPings(meId: string): Promise<Ping[]> {
  return db.pings
    .where('[receiverId+createdAt]')
    .between([meId, Dexie.minKey], [meId, Dexie.maxKey], true, true)
    .reverse()
    .toArray();
}
