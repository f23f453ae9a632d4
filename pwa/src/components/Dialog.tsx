import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button, type ButtonProps } from './Button';

export interface DialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/** A modal dialog: focus trapped, Escape closes, title and description announced. */
export function Dialog({ open, onOpenChange, title, description, children }: DialogProps) {
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      className="dialog"
      {...(description ? {} : { 'aria-describedby': undefined })}
    >
      <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
      {description && (
        <RadixDialog.Description className="dialog__description">
          {description}
        </RadixDialog.Description>
      )}
      {children}
    </DialogFrame>
  );
}

export interface DialogFrameProps extends RadixDialog.DialogContentProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The name of the × button. */
  closeLabel?: string;
}

/**
 * What every modal shares (Dialog, the guided tour): the overlay, the content and the × that
 * closes it. The content brings its own Radix Title (and Description, or aria-describedby).
 */
export function DialogFrame({
  open,
  onOpenChange,
  closeLabel = 'Close',
  children,
  ...content
}: DialogFrameProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content {...content}>
          {children}
          <RadixDialog.Close className="dialog__close" aria-label={closeLabel}>
            <span aria-hidden="true">×</span>
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** For buttons inside a dialog that simply close it (Cancel). */
export const DialogClose = RadixDialog.Close;

/**
 * The row that ends most dialogs: a button that only closes the dialog (`cancelLabel`, Cancel by
 * default), then the dialog's own action (any Button: a submit button for a form, or one with
 * onClick).
 */
export function DialogActions({
  cancelLabel = 'Cancel',
  ...action
}: ButtonProps & { cancelLabel?: string | undefined }) {
  return (
    <div className="dialog__actions">
      <DialogClose asChild>
        <Button variant="secondary">{cancelLabel}</Button>
      </DialogClose>
      <Button {...action} />
    </div>
  );
}
