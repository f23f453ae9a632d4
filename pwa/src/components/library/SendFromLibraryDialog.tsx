/** The Library's send dialog: one friend (radio buttons), POST /api/pings through the outbox. */
import type { Prompt, SelfUser } from '@pingme/shared';
import { useState } from 'react';
import { afterNextPaint } from '../../lib/frames';
import { toast } from '../../stores';
import { Button } from '../Button';
import { Dialog, DialogClose } from '../Dialog';
import { sendPromptPing } from '../home/send-pings';
import type { FriendRow } from '../home/useHomeData';
import { sentToast } from '../pings/SendPromptDialog';
import { FriendPicker } from './FriendPicker';
import { LIBRARY_MESSAGES, promptEmoji } from './library-rules';
import { PromptPreview } from './PromptPreview';

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
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = (open: boolean) => {
    if (!open) {
      setSelected([]);
      setError(null);
    }
    onOpenChange(open);
  };

  const send = async () => {
    if (!prompt) return;
    const friend = friends.find((f) => f.id === selected[0]);
    if (!friend) {
      setError(LIBRARY_MESSAGES.sendNone);
      return;
    }
    setBusy(true);
    try {
      await sendPromptPing(
        me,
        friend,
        { id: prompt.id, text: prompt.text, emoji: promptEmoji(prompt) },
        { description: LIBRARY_MESSAGES.sendFailed },
      );
      await afterNextPaint();
      toast(sentToast(prompt.text, 1));
      close(false);
    } catch {
      toast({ title: 'Error', description: LIBRARY_MESSAGES.sendFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={prompt !== null}
      onOpenChange={close}
      title="Send Ping"
      description="Choose the friend who should get it."
    >
      {prompt && (
        <div className="library-dialog">
          <PromptPreview prompt={prompt} />
          {friends.length === 0 ? (
            <p className="library-dialog__empty">Add friends first to send them pings.</p>
          ) : (
            <FriendPicker
              legend="Friend"
              mode="one"
              friends={friends}
              selected={selected}
              onChange={(s) => {
                setSelected(s);
                setError(null);
              }}
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
            <Button onClick={send} loading={busy} disabled={friends.length === 0}>
              Send
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
