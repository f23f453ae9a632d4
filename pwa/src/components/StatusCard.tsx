import type { ReactNode } from 'react';
import { cx } from './cx';
import { AlertIcon, CheckIcon, ClockIcon } from './icons';

export type StatusTone = 'info' | 'success' | 'warning' | 'error' | 'busy';

export interface StatusCardProps {
  tone: StatusTone;
  /** Unless given, the tone's own (a tick, an alert, a clock); none for info. */
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}

const TONE_ICONS: Partial<Record<StatusTone, ReactNode>> = {
  success: <CheckIcon />,
  error: <AlertIcon />,
  warning: <ClockIcon />,
};

/** A centred card for one state of a screen (verifying, expired, success...). */
export function StatusCard({
  tone,
  icon = TONE_ICONS[tone],
  title,
  children,
  actions,
}: StatusCardProps) {
  return (
    <section className={cx('status-card', `status-card--${tone}`)} aria-live="polite">
      {tone === 'busy' ? (
        <span className="spinner spinner--lg" aria-hidden="true" />
      ) : (
        icon && <span className="status-card__icon">{icon}</span>
      )}
      <h1 className="status-card__title">{title}</h1>
      {children && <div className="status-card__body">{children}</div>}
      {actions && <div className="status-card__actions">{actions}</div>}
    </section>
  );
}
