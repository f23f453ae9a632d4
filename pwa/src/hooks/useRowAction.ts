/**
 * An action on one row of a list the server answers (resolve a report, unblock someone): one at a
 * time, the row shows busy meanwhile, and a failure shows the server's message as an error toast.
 */
import { useState } from 'react';
import { errorMessage } from '../api';
import { toast } from '../stores';

export function useRowAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (rowId: string, action: () => Promise<void>) => {
    setBusy(rowId);
    try {
      await action();
    } catch (err) {
      toast({ title: 'Error', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}
