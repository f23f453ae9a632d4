/**
 * The send dialog (spec: "Send dialog"): the prompt, a scrollable list of friends with
 * checkboxes, 'Cancel' and 'Send (N)'. One friend is a POST /api/pings, several a group ping.
 * Selection starts empty; after a send it is cleared and the dialog closes.
 */
import { sentOrSaved } from '../lib/sent-toast';
import { DEFAULT_PROMPT_EMOJI, displayName, type Prompt, type SelfUser } from '@pingme/shared';
import { memo, useCallback, useState } from 'react';
import { afterNextPaint } from '../lib/frames';
import { toast } from '../stores';
import { SEND_PINGS_ERROR, sendPing } from '../writes/pings';
import { Avatar } from '../components/Avatar';
import { DialogActions } from '../components/Dialog';
import { PromptDialog } from '../components/common/PromptDialog';
import { useBusyWrite } from '../components/common/useBusyWrite';
import type { Friend } from '../components/pings/usePings';

export interface SendPromptDialogProps {
  prompt: Prompt | null;
  me: SelfUser;
  friends: Friend[];
  onOpenChange(open: boolean): void;
}

/** The write's error toast, shown at once if it cannot be queued, or later if it is refused. */
const SEND_FAILED = { description: SEND_PINGS_ERROR };

/** Spec section 8: 'Pings sent! 🎉' with one line for one friend, another for a group. */
export function sentToast(promptText: string, count: number) {
  return sentOrSaved({
    title: 'Pings sent! 🎉',
    description:
      count === 1
        ? `Sent "${promptText}" to your friend`
        : `Sent "${promptText}" to ${count} friends as a group ping`,
    variant: 'success' as const,
  });
}

export function SendPromptDialog({ prompt, me, friends, onOpenChange }: SendPromptDialogProps) {
  const [selected, setSelected] = useState<string[]>([]);
  const { busy: sending, run } = useBusyWrite();

  const close = (open: boolean) => {
    if (!open) setSelected([]);
    onOpenChange(open);
  };
  const toggle = useCallback(
    (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id])),
    [],
  );

  const send = async () => {
    if (!prompt) return;
    const to = friends.filter((f) => selected.includes(f.id));
    if (to.length === 0) {
      toast({
        title: 'No friends selected',
        description: 'Please select at least one friend to ping',
        variant: 'destructive',
      });
      return;
    }
    await run(
      async () => {
        await sendPing(me, to, { kind: 'prompt', prompt }, SEND_FAILED);
        await afterNextPaint();
        toast(sentToast(prompt.text, to.length));
        close(false);
      },
      SEND_FAILED,
      'could not queue the pings',
    );
  };

  return (
    <PromptDialog
      prompt={prompt}
      onOpenChange={close}
      title="Send this ping"
      description="Choose the friends who should get it."
    >
      {(prompt) => (
        <div className="send-dialog">
          <p className="send-dialog__prompt">
            <span className="send-dialog__emoji" aria-hidden="true">
              {prompt.emoji || DEFAULT_PROMPT_EMOJI}
            </span>
            <span>{prompt.text}</span>
          </p>
          {friends.length === 0 ? (
            <p className="send-dialog__empty">Add friends first to send them pings.</p>
          ) : (
            <fieldset className="friend-checklist">
              <legend className="visually-hidden">Friends</legend>
              {friends.map((f) => (
                <FriendCheckRow
                  key={f.id}
                  friend={f}
                  checked={selected.includes(f.id)}
                  onToggle={toggle}
                />
              ))}
            </fieldset>
          )}
          <DialogActions onClick={send} disabled={selected.length === 0} loading={sending}>
            Send ({selected.length})
          </DialogActions>
        </div>
      )}
    </PromptDialog>
  );
}

/**
 * One friend's checkbox. Memoised: sending, closing and ticking someone else re-render only the
 * rows whose state changed, so the frame after a send is not spent on the whole list.
 */
const FriendCheckRow = memo(function FriendCheckRow(props: {
  friend: Friend;
  checked: boolean;
  onToggle(id: string): void;
}) {
  const { friend, checked, onToggle } = props;
  return (
    <label className="friend-checklist__row">
      <input type="checkbox" checked={checked} onChange={() => onToggle(friend.id)} />
      <Avatar user={friend} size="sm" />
      <span className="friend-checklist__name">{displayName(friend)}</span>
    </label>
  );
});
