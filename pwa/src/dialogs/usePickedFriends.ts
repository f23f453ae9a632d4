/**
 * The state of a Library dialog that picks friends for a prompt (Assign, Send): the choice and
 * its error, busy while the write is made durable, and closing, which forgets the choice.
 */
import { useState } from 'react';
import { useBusyWrite } from '../components/common/useBusyWrite';
import type { ErrorToast } from '../writes/pending';

export function usePickedFriends(onOpenChange: (open: boolean) => void) {
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useBusyWrite();

  const close = (open: boolean) => {
    if (!open) {
      setSelected([]);
      setError(null);
    }
    onOpenChange(open);
  };

  const onSelect = (ids: string[]) => {
    setSelected(ids);
    setError(null);
  };

  /**
   * Makes the write (and its success toast), then closes; if it fails, the spec's error toast,
   * `failed`, which the write also shows if the server refuses it later.
   */
  const submit = (write: () => Promise<void>, failed: ErrorToast) =>
    run(async () => {
      await write();
      close(false);
    }, failed);

  return { selected, onSelect, error, setError, busy, close, submit };
}
