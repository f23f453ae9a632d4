/**
 * A Library dialog about one prompt (assign, send, delete): open while there is a prompt, which
 * it shows first, then the dialog's own body.
 */
import type { ReactNode } from 'react';
import { PromptDialog, type PromptDialogProps } from '../common/PromptDialog';
import { PromptPreview } from './PromptPreview';

export interface LibraryPromptDialogProps extends Omit<PromptDialogProps, 'children'> {
  children: ReactNode;
}

export function LibraryPromptDialog({ children, ...dialog }: LibraryPromptDialogProps) {
  return (
    <PromptDialog {...dialog}>
      {(prompt) => (
        <div className="library-dialog">
          <PromptPreview prompt={prompt} />
          {children}
        </div>
      )}
    </PromptDialog>
  );
}
