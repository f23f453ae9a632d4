import { Link } from '@tanstack/react-router';
import type { ComponentType, SVGProps } from 'react';
import { ActivityIcon, FriendsIcon, HomeIcon, PingIcon, ProfileIcon } from './icons';

const ITEMS: { to: string; label: string; icon: ComponentType<SVGProps<SVGSVGElement>> }[] = [
  { to: '/', label: 'Home', icon: HomeIcon },
  { to: '/pings', label: 'Pings', icon: PingIcon },
  { to: '/activity', label: 'Activity', icon: ActivityIcon },
  { to: '/friends', label: 'Friends', icon: FriendsIcon },
  { to: '/profile', label: 'Profile', icon: ProfileIcon },
];

/** The global bottom navigation of signed-in screens (spec section 2, "Global navigation"). */
export function BottomNav() {
  return (
    <nav className="bottom-nav" aria-label="Main">
      <ul>
        {ITEMS.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="bottom-nav__link"
              activeOptions={{ exact: to === '/' }}
              activeProps={{ 'aria-current': 'page', className: 'is-active' }}
            >
              <Icon className="bottom-nav__icon" />
              <span>{label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
