/** What a non-friend sees instead of the details of someone's profile. */
import { ButtonLink } from '../ButtonLink';
import { LockIcon } from '../icons';

export function LockedCard() {
  return (
    <section className="card pf-locked-card" aria-labelledby="locked-title">
      <span className="pf-locked-card__icon">
        <LockIcon />
      </span>
      <h2 id="locked-title" className="card__title card__title--sm">
        This profile is private
      </h2>
      <p>Add them as a friend to see more details</p>
      <ButtonLink to="/friends-search" variant="secondary" size="sm">
        Find friends
      </ButtonLink>
    </section>
  );
}
