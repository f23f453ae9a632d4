/**
 * The activity screen's list, newest first, with each item's status label. Virtualised against
 * the window's scroll (@tanstack/react-virtual): however long the history, only the rows in and
 * near the viewport are in the DOM, each measured once rendered. It stays a real list for
 * assistive technology: every rendered row says where it sits (aria-posinset of aria-setsize),
 * and scrolling with the keyboard (arrows, Page Down, End) reaches the oldest row. Rows hold no
 * controls, so nothing that has focus is ever unmounted by scrolling.
 */
import { relativeTime } from '@pingme/shared';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { useDocumentTop } from '../../hooks/useDocumentTop';
import { Avatar } from '../Avatar';
import { cx } from '../cx';
import type { ActivityItem, ActivityStatus } from './feed';
import '../../styles/long-lists.css';

/** A row's height before it is measured (two or three lines of text and the status label). */
export const ROW_ESTIMATE_PX = 116;
const GAP_PX = 10;
/** Rows rendered beyond each edge of the viewport, so a fast scroll shows no blank. */
const OVERSCAN = 6;

const STATUS_TONE: Record<ActivityStatus, string> = {
  'Waiting to send': 'neutral',
  Sent: 'neutral',
  Opened: 'info',
  Responded: 'success',
  New: 'brand',
  Achievement: 'gold',
  'Anchor Activity': 'anchor',
  Bookmarked: 'violet',
};

export function ActivityList({ items, now }: { items: readonly ActivityItem[]; now: number }) {
  const listRef = useRef<HTMLUListElement>(null);
  const top = useDocumentTop(listRef);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => ROW_ESTIMATE_PX,
    gap: GAP_PX,
    overscan: OVERSCAN,
    scrollMargin: top,
    getItemKey: (i) => items[i]!.id,
  });
  return (
    <ul
      ref={listRef}
      className="act-list virtual-list"
      aria-label="Activity"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => {
        const item = items[row.index]!;
        return (
          <li
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            aria-setsize={items.length}
            aria-posinset={row.index + 1}
            className={`act-item act-item--${item.kind} virtual-list__row`}
            style={{ transform: `translateY(${row.start - top}px)` }}
          >
            <ActivityRow item={item} now={now} />
          </li>
        );
      })}
    </ul>
  );
}

function ActivityRow({ item, now }: { item: ActivityItem; now: number }) {
  return (
    <>
      {item.person ? (
        <Avatar user={item.person} size="md" />
      ) : (
        <span className="act-item__badge-icon" aria-hidden="true">
          {item.emoji}
        </span>
      )}
      <div className="act-item__body">
        <p className="act-item__text">
          {item.person && (
            <span className="act-item__emoji" aria-hidden="true">
              {item.emoji}{' '}
            </span>
          )}
          <span className="act-item__words">{item.text}</span>
        </p>
        <span
          className={cx('act-status', `act-status--${STATUS_TONE[item.status]}`)}
          data-testid="activity-status"
        >
          {item.status}
        </span>
      </div>
      <time className="act-item__time" dateTime={item.at}>
        {relativeTime(item.at, now, 'notification')}
      </time>
    </>
  );
}
