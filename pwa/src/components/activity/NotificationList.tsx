/** The mixed notifications list: friend requests, anchor activity and the latest pings. */
import { displayName } from '@pingme/shared';
import { Avatar } from '../Avatar';
import { RequestActions } from '../friends/RequestRow';
import { ItemTime } from './FeedParts';
import { anchorActivityText, type NotificationItem } from './feed';

export function NotificationList({
  items,
  now,
}: {
  items: readonly NotificationItem[];
  now: number;
}) {
  return (
    <ul className="act-list" aria-label="Notifications">
      {items.map((item) => (
        <li key={item.id} className={`act-item act-item--${item.kind}`}>
          <Avatar user={item.person} size="md" />
          <div className="act-item__body">
            <p className="act-item__text">{textOf(item)}</p>
            {item.kind === 'friend_request' && (
              <div className="act-item__actions">
                <RequestActions request={item.request} />
              </div>
            )}
          </div>
          <ItemTime at={item.at} now={now} />
        </li>
      ))}
    </ul>
  );
}

function textOf(item: NotificationItem) {
  const name = displayName(item.person);
  switch (item.kind) {
    case 'friend_request':
      return (
        <>
          <strong>{name}</strong> wants to be your friend
        </>
      );
    case 'anchor_request':
      return (
        <>
          <strong>{name}</strong> wants to create an Anchor connection
        </>
      );
    case 'anchor_activity':
      return (
        <>
          <span aria-hidden="true">⚓ </span>
          {anchorActivityText(name, item.count)}
        </>
      );
    case 'ping':
      return item.text;
  }
}
