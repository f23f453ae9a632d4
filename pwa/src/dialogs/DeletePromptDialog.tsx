/** Confirms deleting a custom prompt (prompt.delete through the outbox). */
import type { Prompt } from '@pingme/shared';
import { toast } from '../stores';
import { DialogActions } from '../components/Dialog';
import { useBusyWrite } from '../components/common/useBusyWrite';
import { LIBRARY_MESSAGES } from '../components/library/library-rules';
import { deletePrompt } from '../writes/prompts';
import { LibraryPromptDialog } from '../components/library/LibraryPromptDialog';

export interface DeletePromptDialogProps {
  prompt: Prompt | null;
  onOpenChange(open: boolean): void;
}

export function DeletePromptDialog({ prompt, onOpenChange }: DeletePromptDialogProps) {
  const { busy, run } = useBusyWrite();
  const remove = async () => {
    if (!prompt) return;
    const failed = { description: LIBRARY_MESSAGES.deleteFailed };
    await run(async () => {
      await deletePrompt(prompt.id, failed);
      toast({ title: LIBRARY_MESSAGES.deleted, variant: 'success' });
      onOpenChange(false);
    }, failed);
  };
  return (
    <LibraryPromptDialog
      prompt={prompt}
      onOpenChange={onOpenChange}
      title="Delete this prompt?"
      description="It disappears from your library and from the friends it is assigned to. Pings already sent keep their text."
    >
      <DialogActions variant="danger" onClick={remove} loading={busy}>
        Delete
      </DialogActions>
    </LibraryPromptDialog>
  );
}
