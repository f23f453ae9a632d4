/** The row at the foot of a dialog: a button that only closes it, then the dialog's own action. */
import type { ReactNode } from 'react';
import { Button } from '../Button';
import { DialogClose } from '../Dialog';

export function DialogActions({
  cancelLabel = 'Cancel',
  children,
}: {
  cancelLabel?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="dialog__actions">
      <DialogClose asChild>
        <Button variant="secondary">{cancelLabel}</Button>
      </DialogClose>
      {children}
    </div>
  );
}
