/**
 * Submitting a useZodForm form whose success moves on (sign in, sign up, reset, forgot password):
 * validates, keeps the button busy while the request runs and after it succeeds (the screen is
 * about to change, so a second press must not send again), and on failure says why in a toast
 * titled `failTitle` and frees the button for another try (useBusyWrite).
 */
import type { FormEvent } from 'react';
import { errorMessage } from '../../api';
import type { ZodForm } from '../../hooks/useZodForm';
import { useBusyWrite } from '../common/useBusyWrite';

export function useFormSubmit<Out>(
  form: Pick<ZodForm<string, Out>, 'validate'>,
  failTitle: string,
  send: (body: Out) => Promise<void>,
  onFail?: (err: unknown) => void,
): { busy: boolean; onSubmit(event: FormEvent): Promise<void> } {
  const { busy, run } = useBusyWrite({ keepBusyAfterSuccess: true });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate();
    if (!body) return;
    await run(
      () => send(body),
      (err) => {
        onFail?.(err);
        return { title: failTitle, description: errorMessage(err) };
      },
    );
  };
  return { busy, onSubmit };
}
