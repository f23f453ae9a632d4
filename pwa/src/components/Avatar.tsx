import { displayName, type NameParts } from '@pingme/shared';
import { cx } from './cx';

/** Dark enough for white initials (WCAG AA). */
const PALETTE = ['#b93f0c', '#a21caf', '#1d4ed8', '#047857', '#9f1239', '#6d28d9', '#0f766e'];

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}

export interface AvatarProps {
  user: (NameParts & { id?: string; profileImageUrl?: string | null }) | null | undefined;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  className?: string;
}

/**
 * The person's photo, or initials on a colour picked from their id. Generated locally rather
 * than by an avatar service so it also shows offline.
 */
export function Avatar({ user, size = 'md', className }: AvatarProps) {
  const name = displayName(user);
  const classes = cx('avatar', `avatar--${size}`, className);
  if (user?.profileImageUrl) {
    return <img className={classes} src={user.profileImageUrl} alt={name} />;
  }
  const initials =
    name
      .split(/\s+/)
      .map((part) => part[0] ?? '')
      .join('')
      .slice(0, 2)
      .toUpperCase() || '?';
  const colour = PALETTE[hash(user?.id ?? name) % PALETTE.length];
  return (
    <span className={classes} style={{ background: colour }} role="img" aria-label={name}>
      <span aria-hidden="true">{initials}</span>
    </span>
  );
}
