import * as RadixToast from '@radix-ui/react-toast';
import { useEffect } from 'react';
import { DELAYS_MS } from '@pingme/shared';
import { cx } from './cx';
import { useToasts } from '../stores';

/** The one toast on screen (spec section 9); F8 moves focus to it. */
export function Toaster() {
  const current = useToasts((s) => s.current);
  const dismiss = useToasts((s) => s.dismiss);
  const markShown = useToasts((s) => s.markShown);
  const shownId = current?.id;
  // After the commit that put it in the document: what a toast's "shown for 500 ms" counts from.
  useEffect(() => {
    if (shownId !== undefined) markShown(shownId);
  }, [shownId, markShown]);
  return (
    <RadixToast.Provider duration={DELAYS_MS.toastDefault} swipeDirection="right">
      {current && (
        <RadixToast.Root
          key={current.id}
          className={cx('toast', `toast--${current.variant ?? 'default'}`)}
          open={current.open}
          onOpenChange={(open) => {
            if (!open) dismiss();
          }}
          duration={current.durationMs ?? DELAYS_MS.toastDefault}
          type={current.variant === 'destructive' ? 'foreground' : 'background'}
        >
          <RadixToast.Title className="toast__title">{current.title}</RadixToast.Title>
          {current.description && (
            <RadixToast.Description className="toast__description">
              {current.description}
            </RadixToast.Description>
          )}
          <RadixToast.Close className="toast__close" aria-label="Dismiss notification">
            <span aria-hidden="true">×</span>
          </RadixToast.Close>
        </RadixToast.Root>
      )}
      <RadixToast.Viewport className="toast-viewport" />
    </RadixToast.Provider>
  );
}
