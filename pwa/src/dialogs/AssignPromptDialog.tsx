/** Assign a prompt to friends: checkboxes, one prompt.assign per friend through the outbox. */
import type { Prompt } from '@pingme/shared';
import { toast } from '../stores';
import { LibraryPromptDialog } from '../components/library/LibraryPromptDialog';
import type { FriendRow } from '../components/home/useHomeData';
import { LIBRARY_MESSAGES } from '../components/library/library-rules';
import { assignPrompt } from '../writes/prompts';
import { PromptFriendsForm } from '../components/library/PromptFriendsForm';
import { usePickedFriends } from './usePickedFriends';

export interface AssignPromptDialogProps {
  prompt: Prompt | null;
  friends: readonly FriendRow[];
  onOpenChange(open: boolean): void;
}

export function AssignPromptDialog({ prompt, friends, onOpenChange }: AssignPromptDialogProps) {
  const { selected, onSelect, error, setError, busy, close, submit } =
    usePickedFriends(onOpenChange);
  const assigned = prompt?.assignments.map((a) => a.friendId) ?? [];

  const assign = async () => {
    if (!prompt) return;
    const chosen = friends.filter((f) => selected.includes(f.id) && !assigned.includes(f.id));
    if (chosen.length === 0) {
      setError(LIBRARY_MESSAGES.assignNone);
      return;
    }
    const failed = { description: LIBRARY_MESSAGES.assignFailed };
    await submit(async () => {
      await assignPrompt(prompt.id, chosen, failed);
      const friendsWord = chosen.length === 1 ? 'friend' : 'friends';
      toast({
        title: 'Prompt assigned!',
        description: `"${prompt.text}" is now available to ${chosen.length} more ${friendsWord}.`,
        variant: 'success',
      });
    }, failed);
  };

  return (
    <LibraryPromptDialog
      prompt={prompt}
      onOpenChange={close}
      title="Assign Prompt"
      description="Pick the friends this prompt is for. Assigning sends nothing yet."
    >
      <PromptFriendsForm
        legend="Friends"
        mode="several"
        friends={friends}
        selected={selected}
        onSelect={onSelect}
        fixed={{ ids: assigned, note: 'Assigned' }}
        emptyText="Add friends first to assign them prompts."
        error={error}
        action={{
          label: `Assign${selected.length ? ` (${selected.length})` : ''}`,
          busy,
          onClick: () => void assign(),
        }}
      />
    </LibraryPromptDialog>
  );
}
