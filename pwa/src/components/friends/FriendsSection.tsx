/**
 * A section of the friends and activity screens, named by its heading (one id for both): the
 * heading in the friends sheet's look, with `aside` (a button) beside it when given, then the
 * section's content.
 */
import type { ReactNode } from 'react';

export function FriendsSection({
  id,
  title,
  className,
  aside,
  children,
}: {
  /** The heading's id, which names the section for assistive tech. */
  id: string;
  title: ReactNode;
  className?: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  const heading = (
    <h2 id={id} className="fr-section-title">
      {title}
    </h2>
  );
  return (
    <section className={className} aria-labelledby={id}>
      {aside ? (
        <div className="fr-section-head">
          {heading}
          {aside}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
