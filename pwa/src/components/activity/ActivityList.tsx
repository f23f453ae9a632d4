/**
 * The activity screen's list, newest first, with each item's status label. Bounded: the first
 * PAGE items, then 'Show more' adds a page at a time, so a long history never renders at once.
 */
import { relativeTime } from '@pingme/shared';
import { useState } from 'react';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { cx } from '../cx';
import type { ActivityItem, ActivityStatus } from './feed';

export const PAGE = 30;

const STATUS_TONE: Record<ActivityStatus, string> = {
  Sent: 'neutral',
  Opened: 'info',
  Responded: 'success',
  New: 'brand',
  Achievement: 'gold',
  'Anchor Activity': 'anchor',
  Bookmarked: 'violet',
};

export function ActivityList({ items, now }: { items: readonly ActivityItem[]; now: number }) {
  const [shown, setShown] = useState(PAGE);
  const visible = items.slice(0, shown);
  return (
    <>
      <ul className="act-list" aria-label="Activity">
        {visible.map((item) => (
          <li key={item.id} className={`act-item act-item--${item.kind}`}>
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
              <span className={cx('act-status', `act-status--${STATUS_TONE[item.status]}`)}>
                {item.status}
              </span>
            </div>
            <time className="act-item__time" dateTime={item.at}>
              {relativeTime(item.at, now, 'notification')}
            </time>
          </li>
        ))}
      </ul>
      {items.length > shown && (
        <Button variant="secondary" block onClick={() => setShown((n) => n + PAGE)}>
          Show more ({items.length - shown} older)
        </Button>
      )}
    </>
  );
}
