/** The activity filter chips: All, Sent, Received, Anchors (toggle buttons, one pressed). */
import { cx } from '../cx';
import { ACTIVITY_FILTERS, type ActivityFilter } from './feed';

const LABELS: Record<ActivityFilter, string> = {
  all: 'All',
  sent: 'Sent',
  received: 'Received',
  anchors: 'Anchors',
};

export function FilterChips({
  value,
  onChange,
}: {
  value: ActivityFilter;
  onChange(filter: ActivityFilter): void;
}) {
  return (
    <div className="act-chips" role="group" aria-label="Filter activity">
      {ACTIVITY_FILTERS.map((f) => (
        <button
          key={f}
          type="button"
          className={cx('act-chip', value === f && 'is-active')}
          aria-pressed={value === f}
          onClick={() => onChange(f)}
        >
          {LABELS[f]}
        </button>
      ))}
    </div>
  );
}
