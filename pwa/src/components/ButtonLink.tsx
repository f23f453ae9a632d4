/**
 * A router link that looks like a button (`variant`, `size` and `block` as for Button), typed
 * like <Link>. The first download's screens (Landing, 404) put buttonClass on a <Link> instead:
 * this module stays out of that chunk.
 */
import { createLink } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';
import { buttonClass, type ButtonSize, type ButtonVariant } from './Button';

interface ButtonAnchorProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  ref?: Ref<HTMLAnchorElement>;
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
}

function ButtonAnchor({ variant, size, block, className, ...anchor }: ButtonAnchorProps) {
  return <a {...anchor} className={buttonClass(variant, size, block, className)} />;
}

export const ButtonLink = createLink(ButtonAnchor);
