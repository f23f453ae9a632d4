/**
 * The new-ping banner at the top of the app (spec section 4): 'New Ping from {name}!' and the
 * prompt, with a dismiss button; it hides after 4 s. It appears when the newest received ping's
 * id is larger than the last one seen (kept in Dexie meta, per person); on the first load only
 * if that ping is unread, and only once. A `new_ping` over /ws also shows a 3 s toast, unless the
 * banner is saying the same thing at that moment (one message, not two stacked).
 */
import { DELAYS_MS, displayName } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState } from 'react';
import { db, getMeta } from '../../db';
import { toast, useRealtime, useSession, useToasts } from '../../stores';
import { getSyncMeta, setSyncMeta } from '../../sync/meta';
import { pingText } from '../../lib/ping-text';
import type { LocalPing } from '../../writes/pings';
import '../../styles/pings.css';

/** Whether `newest` deserves the banner, given the last seen id (undefined: first load). */
export function shouldAnnounce(newest: { id: string; isRead: boolean }, lastSeen?: string) {
  return lastSeen === undefined ? !newest.isRead : newest.id > lastSeen;
}

export function NewPingBanner() {
  const me = useSession((s) => s.user);
  const meId = me?.id;
  const [shown, setShown] = useState<LocalPing | null>(null);
  const newest = useLiveQuery(async () => {
    // Only once the first pull has landed, so a snapshot arriving page by page is not news.
    if (!meId || (await getMeta('cursor')) === undefined) return null;
    // The receiverId index lists one person's pings in id order: the last is the newest.
    const top = await db.pings.where('receiverId').equals(meId).last();
    return (top as LocalPing | undefined) ?? null;
  }, [meId]);

  useEffect(() => {
    if (!meId || !newest) return;
    let cancelled = false;
    void (async () => {
      const seen = await getSyncMeta('lastSeenPingId');
      const lastSeen = seen?.userId === meId ? seen.pingId : undefined;
      if (lastSeen !== undefined && newest.id <= lastSeen) return;
      await setSyncMeta('lastSeenPingId', { userId: meId, pingId: newest.id });
      if (!cancelled && shouldAnnounce(newest, lastSeen)) setShown(newest);
    })();
    return () => {
      cancelled = true;
    };
  }, [meId, newest]);

  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), DELAYS_MS.newPingBanner);
    return () => clearTimeout(timer);
  }, [shown]);

  useNewPingToast(meId, shown);

  if (!shown || !meId) return null;
  const name = shown.sender.firstName || displayName(shown.sender);
  return (
    <div className="new-ping-banner" role="status" data-testid="new-ping-banner">
      <span className="new-ping-banner__icon" aria-hidden="true">
        🔔
      </span>
      <div className="new-ping-banner__body">
        <strong>New Ping from {name}!</strong>
        <span>{pingText(shown, meId)}</span>
      </div>
      <button
        type="button"
        className="new-ping-banner__close"
        aria-label="Dismiss"
        onClick={() => setShown(null)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

const newPingTitle = (ping: Pick<LocalPing, 'sender'>) =>
  `New Ping from ${ping.sender.firstName || displayName(ping.sender)}!`;

/**
 * The 3 s toast for a ping that arrives over /ws while the app is open. The banner usually shows
 * the same ping a moment later (once the pull has stored it): then the toast goes, so the two
 * never say the same thing twice on screen.
 */
function useNewPingToast(meId: string | undefined, banner: LocalPing | null) {
  const event = useRealtime((s) => s.lastNewPing);
  // Read by the toast's effect, which runs on a new event only (not when the banner changes).
  const bannerId = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!event || !meId || event.ping.receiverId !== meId) return;
    const { ping } = event;
    if (bannerId.current === ping.id) return;
    toast({
      title: newPingTitle(ping),
      description: pingText(ping, meId),
      durationMs: DELAYS_MS.newPingToast,
    });
  }, [event, meId]);
  useEffect(() => {
    bannerId.current = banner?.id;
    if (!banner || !meId) return;
    const current = useToasts.getState().current;
    if (
      current?.open &&
      current.title === newPingTitle(banner) &&
      current.description === pingText(banner, meId)
    )
      useToasts.getState().dismiss();
  }, [banner, meId]);
}
