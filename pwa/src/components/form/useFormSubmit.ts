/**
 * Submitting a useZodForm form whose success moves on (sign in, sign up, reset, forgot password):
 * validates, keeps the button busy while the request runs and after it succeeds (the screen is
 * about to change, so a second press must not send again), and on failure says why in a toast
 * titled `failTitle` and frees the button for another try.
 */
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api';
import type { ZodForm } from '../../hooks/useZodForm';
import { toast } from '../../stores';

export function useFormSubmit<Out>(
  form: Pick<ZodForm<string, Out>, 'validate'>,
  failTitle: string,
  send: (body: Out) => Promise<void>,
  onFail?: (err: unknown) => void,
): { busy: boolean; onSubmit(event: FormEvent): Promise<void> } {
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate();
    if (!body) return;
    setBusy(true);
    try {
      await send(body);
    } catch (err) {
      toast({ title: failTitle, description: errorMessage(err), variant: 'destructive' });
      onFail?.(err);
      setBusy(false);
    }
  };
  return { busy, onSubmit };
}
