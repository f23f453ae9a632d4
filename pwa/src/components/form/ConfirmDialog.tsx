/**
 * Asks before something that cannot simply be taken back (unfriend, block, sign out): the title
 * and description say what happens, the danger button does it. While it runs (`busy`) the dialog
 * cannot be closed, so the person sees it through.
 */
import type { ReactNode } from 'react';
import { Dialog, DialogActions } from '../Dialog';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string | undefined;
  busy?: boolean;
  onConfirm(): void;
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel,
  busy = false,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      title={title}
      description={description}
    >
      <DialogActions cancelLabel={cancelLabel} variant="danger" loading={busy} onClick={onConfirm}>
        {confirmLabel}
      </DialogActions>
    </Dialog>
  );
}
