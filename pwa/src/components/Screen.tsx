import type { ReactNode } from 'react';
import { cx } from './cx';

export interface ScreenProps {
  title: string;
  subtitle?: ReactNode;
  /** Extra content of the header row (actions). */
  aside?: ReactNode;
  className?: string;
  children?: ReactNode;
}

/** The frame of a signed-in screen: its title (the page's h1) and its content. */
export function Screen({ title, subtitle, aside, className, children }: ScreenProps) {
  return (
    <div className={cx('screen', className)}>
      <header className="screen__header">
        <div>
          <h1 className="screen__title">{title}</h1>
          {subtitle && <p className="screen__subtitle">{subtitle}</p>}
        </div>
        {aside}
      </header>
      {children}
    </div>
  );
}
