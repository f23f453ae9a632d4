/**
 * A dialog about one prompt (Home's send, and the Library's: LibraryPromptDialog): open while
 * there is a prompt, and its body is drawn for that prompt.
 */
import type { Prompt } from '@pingme/shared';
import type { ReactNode } from 'react';
import { Dialog, type DialogProps } from '../Dialog';

export interface PromptDialogProps extends Omit<DialogProps, 'open' | 'children'> {
  prompt: Prompt | null;
  children(prompt: Prompt): ReactNode;
}

export function PromptDialog({ prompt, children, ...dialog }: PromptDialogProps) {
  return (
    <Dialog open={prompt !== null} {...dialog}>
      {prompt && children(prompt)}
    </Dialog>
  );
}
