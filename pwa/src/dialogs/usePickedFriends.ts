/**
 * The state of a Library dialog that picks friends for a prompt (Assign, Send): the choice and
 * its error, busy while the write is made durable, and closing, which forgets the choice.
 */
import { useState } from 'react';
import { toast } from '../stores';

export function usePickedFriends(onOpenChange: (open: boolean) => void) {
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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

  /** Makes the write (and its success toast), then closes; if it fails, the spec's error toast. */
  const submit = async (write: () => Promise<void>, failed: string) => {
    setBusy(true);
    try {
      await write();
      close(false);
    } catch {
      toast({ title: 'Error', description: failed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return { selected, onSelect, error, setError, busy, close, submit };
}
