/** Confirms deleting a custom prompt (prompt.delete through the outbox). */
import type { Prompt } from '@pingme/shared';
import { useState } from 'react';
import { toast } from '../stores';
import { Dialog, DialogActions } from '../components/Dialog';
import { LIBRARY_MESSAGES } from '../components/library/library-rules';
import { deletePrompt } from '../writes/prompts';
import { PromptPreview } from '../components/library/PromptPreview';

export interface DeletePromptDialogProps {
  prompt: Prompt | null;
  onOpenChange(open: boolean): void;
}

export function DeletePromptDialog({ prompt, onOpenChange }: DeletePromptDialogProps) {
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    if (!prompt) return;
    setBusy(true);
    try {
      await deletePrompt(prompt.id, { description: LIBRARY_MESSAGES.deleteFailed });
      toast({ title: LIBRARY_MESSAGES.deleted, variant: 'success' });
      onOpenChange(false);
    } catch {
      toast({ title: 'Error', description: LIBRARY_MESSAGES.deleteFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={prompt !== null}
      onOpenChange={onOpenChange}
      title="Delete this prompt?"
      description="It disappears from your library and from the friends it is assigned to. Pings already sent keep their text."
    >
      {prompt && (
        <div className="library-dialog">
          <PromptPreview prompt={prompt} />
          <DialogActions variant="danger" onClick={remove} loading={busy}>
            Delete
          </DialogActions>
        </div>
      )}
    </Dialog>
  );
}
