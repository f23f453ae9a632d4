/**
 * The inbox (/inbox, docs/decisions.md "Where received pings live"): every ping the person
 * received, newest first, each a full card (read, react, bookmark, report). Virtualised against
 * the window's scroll like the activity list, so a long history costs the rows on screen. Spec
 * section 4: when the pings shown include unread ones, all are marked read 2 s later.
 */
import { DELAYS_MS } from '@pingme/shared';
import { Link } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef } from 'react';
import { Screen } from '../components/Screen';
import { WindowVirtualList, type VirtualRows } from '../components/common/WindowVirtualList';
import { PingCard } from '../components/pings/PingCard';
import { useMinuteClock } from '../components/pings/RecentActivity';
import { receivedPings } from '../db/queries';
import { useSession } from '../stores';
import { markAllPingsRead, type LocalPing } from '../writes/pings';
import '../styles/pings.css';

/** A card is about 190 px before it is measured (head, two lines of text, the reactions). */
const ROWS: VirtualRows = { estimatePx: 190, gapPx: 12, overscan: 4 };

export function InboxScreen() {
  const meId = useSession((s) => s.user?.id);
  const pings = useLiveQuery(
    async () => (meId ? ((await receivedPings(meId)) as LocalPing[]) : []),
    [meId],
  );
  const now = useMinuteClock();
  useMarkAllReadWhenShown(meId, pings);
  const unread = pings?.filter((p) => !p.isRead).length ?? 0;

  return (
    <Screen
      title="Inbox"
      subtitle={
        pings && pings.length > 0
          ? `${pings.length} received${unread > 0 ? ` · ${unread} unread` : ''}`
          : 'Every ping your friends send you.'
      }
      className="inbox"
      aside={
        <Link to="/pings" className="pings-section__link">
          Ping Library
        </Link>
      }
    >
      {!pings && (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> Loading your pings…
        </p>
      )}
      {pings && pings.length === 0 && (
        <section className="card card--muted inbox__empty">
          <h2>No pings yet</h2>
          <p>When a friend pings you, it lands here.</p>
        </section>
      )}
      {pings && pings.length > 0 && <InboxList pings={pings} now={now} />}
    </Screen>
  );
}

function InboxList({ pings, now }: { pings: readonly LocalPing[]; now: number }) {
  return (
    <WindowVirtualList items={pings} label="Received pings" className="ping-list" rows={ROWS}>
      {(ping) => <PingCard ping={ping} now={now} />}
    </WindowVirtualList>
  );
}

/** Spec section 4: unread pings on screen are all marked read 2 s later (one mark-all-read). */
function useMarkAllReadWhenShown(
  meId: string | undefined,
  pings: readonly LocalPing[] | undefined,
) {
  const unread = pings?.filter((p) => !p.isRead) ?? [];
  const key = unread.map((p) => p.id).join(',');
  const latest = useRef(unread);
  latest.current = unread;
  useEffect(() => {
    if (!meId || !key) return;
    const timer = setTimeout(() => {
      const still = latest.current.filter((p) => !p.isRead);
      if (still.length === 0) return;
      void markAllPingsRead(meId, still).catch((err) => console.warn('mark-all-read failed', err));
    }, DELAYS_MS.markAllRead);
    return () => clearTimeout(timer);
  }, [meId, key]);
}
