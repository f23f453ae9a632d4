import { Link } from '@tanstack/react-router';
import { FriendsIcon } from '../icons';

/** The floating button to friend search, shown on Home once the person has friends. */
export function FindFriendsFab() {
  return (
    <Link to="/friends-search" className="fab" aria-label="Find friends">
      <FriendsIcon />
      <span className="fab__plus" aria-hidden="true">
        +
      </span>
    </Link>
  );
}
