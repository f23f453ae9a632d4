/** Assign a prompt to friends: checkboxes, one POST /api/prompts/assign per friend. */
import type { Prompt } from '@pingme/shared';
import { useState } from 'react';
import { toast } from '../../stores';
import { Button } from '../Button';
import { Dialog, DialogClose } from '../Dialog';
import type { FriendRow } from '../home/useHomeData';
import { FriendPicker } from './FriendPicker';
import { LIBRARY_MESSAGES } from './library-rules';
import { assignPrompt } from './library-writes';
import { PromptPreview } from './PromptPreview';

export interface AssignPromptDialogProps {
  prompt: Prompt | null;
  friends: readonly FriendRow[];
  onOpenChange(open: boolean): void;
}

export function AssignPromptDialog({ prompt, friends, onOpenChange }: AssignPromptDialogProps) {
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const assigned = prompt?.assignments.map((a) => a.friendId) ?? [];

  const close = (open: boolean) => {
    if (!open) {
      setSelected([]);
      setError(null);
    }
    onOpenChange(open);
  };

  const assign = async () => {
    if (!prompt) return;
    const chosen = friends.filter((f) => selected.includes(f.id) && !assigned.includes(f.id));
    if (chosen.length === 0) {
      setError(LIBRARY_MESSAGES.assignNone);
      return;
    }
    setBusy(true);
    try {
      await assignPrompt(prompt.id, chosen);
      toast({
        title: 'Prompt assigned!',
        description: `"${prompt.text}" is now available to ${chosen.length} more ${chosen.length === 1 ? 'friend' : 'friends'}.`,
        variant: 'success',
      });
      close(false);
    } catch {
      toast({ title: 'Error', description: LIBRARY_MESSAGES.assignFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={prompt !== null}
      onOpenChange={close}
      title="Assign Prompt"
      description="Pick the friends this prompt is for. Assigning sends nothing yet."
    >
      {prompt && (
        <div className="library-dialog">
          <PromptPreview prompt={prompt} />
          {friends.length === 0 ? (
            <p className="library-dialog__empty">Add friends first to assign them prompts.</p>
          ) : (
            <FriendPicker
              legend="Friends"
              mode="several"
              friends={friends}
              selected={selected}
              onChange={(s) => {
                setSelected(s);
                setError(null);
              }}
              fixed={{ ids: assigned, note: 'Assigned' }}
            />
          )}
          {error && (
            <p className="field__error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog__actions">
            <DialogClose asChild>
              <Button variant="secondary">Cancel</Button>
            </DialogClose>
            <Button onClick={assign} loading={busy} disabled={friends.length === 0}>
              Assign{selected.length ? ` (${selected.length})` : ''}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
