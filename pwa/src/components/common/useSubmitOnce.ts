/**
 * The busy flag of a form that makes one write and then goes away (a dialog that closes, a
 * screen that navigates). `submit` sets it and runs the write with its success steps; if they
 * throw, it shows `failure` as a destructive toast and clears the flag so the person can try
 * again. After a success the flag stays set: the form is on its way out, and a second tap in
 * between must not send twice.
 */
import { useState } from 'react';
import { toast, type ToastInput } from '../../stores';

export function useSubmitOnce() {
  const [busy, setBusy] = useState(false);
  const submit = async (write: () => Promise<void>, failure: Omit<ToastInput, 'variant'>) => {
    setBusy(true);
    try {
      await write();
    } catch {
      toast({ ...failure, variant: 'destructive' });
      setBusy(false);
    }
  };
  return { busy, submit };
}
