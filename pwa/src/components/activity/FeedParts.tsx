/**
 * Small pieces of the Activity and Notifications screens: the empty state, a tab's label with its
 * count badge, and an item's time.
 */
import { relativeTime } from '@pingme/shared';
import type { ReactNode } from 'react';

/** A centred empty state: an icon, a title and a line of what will appear. */
export function EmptyState({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="card card--muted fr-empty act-empty">
      <span className="fr-empty__icon" aria-hidden="true">
        {icon}
      </span>
      <p className="fr-empty__title">{title}</p>
      {children && <p className="fr-muted">{children}</p>}
    </div>
  );
}

/** A tab's label with its count badge (nothing when zero). */
export function TabLabel({ label, count }: { label: string; count: number }) {
  return (
    <span className="act-tab">
      {label}
      {count > 0 && (
        <span className="act-tab__badge">
          {count > 99 ? '99+' : count}
          <span className="visually-hidden"> new</span>
        </span>
      )}
    </span>
  );
}

/** When a feed row happened, relative to `now` ('5m ago'), at the row's end. */
export function ItemTime({ at, now }: { at: string; now: number }) {
  return (
    <time className="act-item__time" dateTime={at}>
      {relativeTime(at, now, 'notification')}
    </time>
  );
}
