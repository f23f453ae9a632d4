/**
 * The busy flag of a form or dialog around one write. `run` sets it and makes the write with its
 * success steps (a toast, closing, navigating); if they throw, it shows `failure` (fixed, or made
 * from the error; titled 'Error' unless it has a title, as a write's own ErrorToast, so a dialog
 * can give both the same one) as a destructive toast (and logs `warning` with the error, when
 * given) and clears the flag so the person can try again.
 *
 * After a success the flag is cleared too: a dialog that stays mounted while closed must open
 * again ready. A form that goes away after its write (unmounted, or a screen that navigates)
 * passes `keepBusyAfterSuccess`, so a second tap before it has gone cannot send twice.
 */
import { useState } from 'react';
import { toast, type ToastInput } from '../../stores';

/** The failure toast: fixed, or made from the error (its message); 'Error' when it has no title. */
type Failure = Omit<ToastInput, 'variant' | 'title'> & { title?: string };

export function useBusyWrite({ keepBusyAfterSuccess = false } = {}) {
  const [busy, setBusy] = useState(false);
  const run = async (
    write: () => Promise<void>,
    failure: Failure | ((err: unknown) => Failure),
    warning?: string,
  ) => {
    setBusy(true);
    try {
      await write();
      if (!keepBusyAfterSuccess) setBusy(false);
    } catch (err) {
      if (warning) console.warn(warning, err);
      toast({
        title: 'Error',
        ...(typeof failure === 'function' ? failure(err) : failure),
        variant: 'destructive',
      });
      setBusy(false);
    }
  };
  return { busy, run };
}
