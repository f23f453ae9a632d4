/**
 * A titled card of the profile's tabs (Overview, Settings): a section named by its heading, and
 * the small figure lists those cards show.
 */
import type { ReactNode } from 'react';

export function ProfileCard({
  id,
  title,
  children,
}: {
  /** The heading's id, which names the section for assistive tech. */
  id: string;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card pf-overview-card" aria-labelledby={id}>
      <h3 id={id} className="pf-overview-card__title">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** One figure of a card's list; '–' while it is not known. */
export function MiniStat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value ?? '–'}</dd>
    </div>
  );
}
