import { LIMITS, displayName, smallPhotoUrl, type NameParts } from '@pingme/shared';
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
  size?: AvatarSize;
  className?: string;
}

export type AvatarSize = 'sm' | 'md' | 'lg' | 'xl';

/** The CSS width of each size (styles/components.css `.avatar--*`). */
const CSS_PX: Record<AvatarSize, number> = { sm: 32, md: 44, lg: 64, xl: 88 };

/**
 * `srcSet` and `sizes` for an uploaded photo: the server keeps it at LIMITS.avatarPx and a small
 * copy at LIMITS.avatarSmallPx, and the browser takes the smallest that is sharp at this size on
 * this screen. Other URLs (an OpenID provider's avatar) have one size.
 */
export function photoSources(url: string, size: AvatarSize): { srcSet?: string; sizes?: string } {
  const small = smallPhotoUrl(url);
  if (!small) return {};
  return {
    srcSet: `${small} ${LIMITS.avatarSmallPx}w, ${url} ${LIMITS.avatarPx}w`,
    sizes: `${CSS_PX[size]}px`,
  };
}

/**
 * The person's photo, or initials on a colour picked from their id. Generated locally rather
 * than by an avatar service so it also shows offline.
 */
export function Avatar({ user, size = 'md', className }: AvatarProps) {
  const name = displayName(user);
  const classes = cx('avatar', `avatar--${size}`, className);
  if (user?.profileImageUrl) {
    return (
      <img
        className={classes}
        src={user.profileImageUrl}
        {...photoSources(user.profileImageUrl, size)}
        alt={name}
      />
    );
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
