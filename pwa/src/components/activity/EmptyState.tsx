import type { ReactNode } from 'react';
import { Screen } from '../Screen';

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

/** A feed screen while its rows load from the device. */
export function FeedLoading({ title }: { title: string }) {
  return (
    <Screen title={title}>
      <p className="fr-muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading…
      </p>
    </Screen>
  );
}
