/**
 * The activity screen's list, newest first, with each item's status label. Virtualised against
 * the window's scroll (WindowVirtualList), so a long history costs the rows on screen. Rows hold
 * no controls, so nothing that has focus is ever unmounted by scrolling.
 */
import { Avatar } from '../Avatar';
import { cx } from '../cx';
import { WindowVirtualList, type VirtualRows } from '../common/WindowVirtualList';
import { ItemTime } from './FeedParts';
import type { ActivityItem, ActivityStatus } from './feed';

/** A row's height before it is measured (two or three lines of text and the status label). */
export const ROW_ESTIMATE_PX = 116;
const ROWS: VirtualRows = { estimatePx: ROW_ESTIMATE_PX, gapPx: 10, overscan: 6 };

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
  return (
    <WindowVirtualList
      items={items}
      label="Activity"
      className="act-list"
      rows={ROWS}
      rowClassName={(item) => `act-item act-item--${item.kind}`}
    >
      {(item) => <ActivityRow item={item} now={now} />}
    </WindowVirtualList>
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
      <ItemTime at={item.at} now={now} />
    </>
  );
}
