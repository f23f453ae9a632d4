/**
 * Small stroke icons (24px grid). Decorative: the text beside them carries the meaning. Each is
 * drawn from its strokes, as SVG path data; circle() and rect() write the round and boxed ones.
 */
import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

/** An icon component from its strokes, `size` px wide (the friends screens' buttons use 18). */
function icon(strokes: readonly string[], size = '24') {
  return function Icon(props: IconProps) {
    return (
      <svg
        viewBox="0 0 24 24"
        width={size}
        height={size}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {strokes.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    );
  };
}

/** A circle as path data: two half arcs from its left edge. */
function circle(cx: number, cy: number, r: number) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`;
}

/** A rectangle with corners of radius r as path data, clockwise from its top-left corner. */
function rect(x: number, y: number, width: number, height: number, r: number) {
  const w = width - 2 * r;
  const h = height - 2 * r;
  const arc = (dx: number, dy: number) => `a${r} ${r} 0 0 1 ${dx} ${dy}`;
  return `M${x + r} ${y}h${w}${arc(r, r)}v${h}${arc(-r, r)}h${-w}${arc(-r, -r)}v${-h}${arc(r, -r)}z`;
}

export const HomeIcon = icon(['M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z']);
export const PingIcon = icon([
  'M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z',
  'M12 15.5s-3-1.8-3-3.8a1.6 1.6 0 0 1 3-.8 1.6 1.6 0 0 1 3 .8c0 2-3 3.8-3 3.8z',
]);
export const ActivityIcon = icon(['M22 12h-4l-3 9L9 3l-3 9H2']);
export const FriendsIcon = icon([
  circle(9, 8, 4),
  'M2 21v-1a6 6 0 0 1 6-6h2a6 6 0 0 1 6 6v1',
  'M16 3.1a4 4 0 0 1 0 7.8M22 21v-1a6 6 0 0 0-4-5.6',
]);
export const ProfileIcon = icon([circle(12, 8, 4.5), 'M4 21a8 8 0 0 1 16 0']);
export const HeartIcon = icon([
  'M12 20s-8-4.6-8-10.2A4.6 4.6 0 0 1 12 7a4.6 4.6 0 0 1 8 2.8C20 15.4 12 20 12 20z',
]);
export const BoltIcon = icon(['M13 2 4 14h7l-1 8 9-12h-7z']);
export const StarIcon = icon([
  'm12 3 2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z',
]);
export const CheckIcon = icon([circle(12, 12, 9), 'm8 12 3 3 5-6']);
export const AlertIcon = icon([circle(12, 12, 9), 'M12 7.5v5.5M12 16.5v.01']);
export const MailIcon = icon([rect(3, 5, 18, 14, 2), 'm3 7 9 6 9-6']);
export const ClockIcon = icon([circle(12, 12, 9), 'M12 7v5l3 2']);
export const LockIcon = icon([rect(4, 10.5, 16, 10.5, 2), 'M8 10.5V7a4 4 0 0 1 8 0v3.5']);
export const CompassIcon = icon([circle(12, 12, 9), 'm15.5 8.5-2 5-5 2 2-5z']);

// The friends screens' button icons, drawn at 18px beside their label.
export const GiftIcon = icon(
  [
    rect(3, 8, 18, 4, 1),
    'M12 8v13M19 12v8a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-8',
    'M7.5 8a2.5 2.5 0 0 1 0-5C10 3 12 8 12 8s2-5 4.5-5a2.5 2.5 0 0 1 0 5',
  ],
  '18',
);
export const SmileIcon = icon(
  [circle(12, 12, 9), 'M8 14s1.5 2 4 2 4-2 4-2M9 9h.01M15 9h.01'],
  '18',
);
export const ChartIcon = icon(['M4 20V10M10 20V4M16 20v-7M22 20H2'], '18');
export const SendIcon = icon(['m22 2-7 20-4-9-9-4z', 'M22 2 11 13'], '18');
export const BackIcon = icon(['m15 18-6-6 6-6'], '18');

export function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill="#4285F4"
        d="M22.6 12.3c0-.8-.1-1.5-.2-2.3H12v4.3h6a5.1 5.1 0 0 1-2.2 3.4v2.8h3.6c2-1.9 3.2-4.7 3.2-8.2z"
      />
      <path
        fill="#34A853"
        d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.8c-1 .7-2.2 1.1-3.7 1.1-2.9 0-5.3-1.9-6.2-4.5H2.1v2.9A11 11 0 0 0 12 23z"
      />
      <path fill="#FBBC05" d="M5.8 14.1a6.6 6.6 0 0 1 0-4.2V7H2.1a11 11 0 0 0 0 10z" />
      <path
        fill="#EA4335"
        d="M12 5.4c1.6 0 3 .6 4.2 1.6l3.1-3.1A11 11 0 0 0 2.1 7l3.7 2.9C6.7 7.3 9.1 5.4 12 5.4z"
      />
    </svg>
  );
}
