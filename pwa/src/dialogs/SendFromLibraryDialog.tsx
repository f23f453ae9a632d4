/** The Library's send dialog: one friend (radio buttons), ping.send through the outbox. */
import type { Prompt, SelfUser } from '@pingme/shared';
import { afterNextPaint } from '../lib/frames';
import { toast } from '../stores';
import { LibraryPromptDialog } from '../components/library/LibraryPromptDialog';
import type { FriendRow } from '../components/home/useHomeData';
import { sentToast } from './SendPromptDialog';
import { LIBRARY_MESSAGES, promptEmoji } from '../components/library/library-rules';
import { PromptFriendsForm } from '../components/library/PromptFriendsForm';
import { sendPing } from '../writes/pings';
import { usePickedFriends } from './usePickedFriends';

export interface SendFromLibraryDialogProps {
  prompt: Prompt | null;
  me: SelfUser;
  friends: readonly FriendRow[];
  onOpenChange(open: boolean): void;
}

export function SendFromLibraryDialog({
  prompt,
  me,
  friends,
  onOpenChange,
}: SendFromLibraryDialogProps) {
  const { selected, onSelect, error, setError, busy, close, submit } =
    usePickedFriends(onOpenChange);

  const send = async () => {
    if (!prompt) return;
    const friend = friends.find((f) => f.id === selected[0]);
    if (!friend) {
      setError(LIBRARY_MESSAGES.sendNone);
      return;
    }
    const failed = { description: LIBRARY_MESSAGES.sendFailed };
    const chosen = { id: prompt.id, text: prompt.text, emoji: promptEmoji(prompt) };
    await submit(async () => {
      await sendPing(me, friend, { kind: 'prompt', prompt: chosen }, failed);
      await afterNextPaint();
      toast(sentToast(prompt.text, 1));
    }, failed);
  };

  return (
    <LibraryPromptDialog
      prompt={prompt}
      onOpenChange={close}
      title="Send Ping"
      description="Choose the friend who should get it."
    >
      <PromptFriendsForm
        legend="Friend"
        mode="one"
        friends={friends}
        selected={selected}
        onSelect={onSelect}
        emptyText="Add friends first to send them pings."
        error={error}
        action={{ label: 'Send', busy, onClick: () => void send() }}
      />
    </LibraryPromptDialog>
  );
}
