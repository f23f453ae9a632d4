/** A section of Home, named by its heading (one id for both), with `aside` (a count, a link) beside it. */
import type { ReactNode } from 'react';

export function HomeSection({
  id,
  title,
  aside,
  children,
}: {
  /** The heading's id, which names the section for assistive tech. */
  id: string;
  title: string;
  aside: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="home-section" aria-labelledby={id}>
      <div className="home-section__head">
        <h2 id={id} className="home-section__title">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}
