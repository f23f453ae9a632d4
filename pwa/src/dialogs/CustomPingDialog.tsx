/**
 * A one-off custom ping to one friend: text (up to 200, with a counter) and an emoji (default 💭),
 * the fields the friend's page asks for too (CustomPingFields), and the friend. Validated with the
 * shared CustomPingBody, so messages match the server's.
 */
import { CustomPingBody, displayName, type SelfUser } from '@pingme/shared';
import { useId, useState } from 'react';
import { afterNextPaint } from '../lib/frames';
import { toast } from '../stores';
import { CUSTOM_PING_ERROR, sendPing } from '../writes/pings';
import { Avatar } from '../components/Avatar';
import { Dialog, DialogActions } from '../components/Dialog';
import {
  CustomPingFields,
  useCustomPingFields,
  type CustomPingErrors,
} from '../components/common/CustomPingFields';
import { sentToast } from './SendPromptDialog';
import type { Friend } from '../components/pings/usePings';
import { fieldErrors } from '../hooks/useZodForm';
import { useBusyWrite } from '../components/common/useBusyWrite';

export interface CustomPingDialogProps {
  open: boolean;
  me: SelfUser;
  friends: Friend[];
  onOpenChange(open: boolean): void;
}

export function CustomPingDialog({ open, me, friends, onOpenChange }: CustomPingDialogProps) {
  const { text, emoji, errors, setErrors, reset: resetFields, fields } = useCustomPingFields();
  const [friendId, setFriendId] = useState<string | null>(null);
  const { busy: sending, run } = useBusyWrite();
  const formId = useId();

  const reset = () => {
    resetFields();
    setFriendId(null);
  };
  const close = (next: boolean) => {
    if (!next) reset();
    onOpenChange(next);
  };

  const send = async () => {
    const parsed = CustomPingBody.safeParse({
      receiverId: friendId ?? undefined,
      customText: text,
      ...(emoji ? { customEmoji: emoji } : {}),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error) as CustomPingErrors);
      return;
    }
    const to = friends.find((f) => f.id === friendId)!;
    await run(
      async () => {
        await sendPing(me, to, { kind: 'custom', text, emoji }, CUSTOM_PING_ERROR);
        await afterNextPaint();
        toast(sentToast(parsed.data.customText, 1));
        close(false);
      },
      CUSTOM_PING_ERROR,
      'could not queue the custom ping',
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Custom Ping"
      description="Write your own ping to one friend."
    >
      <div className="custom-dialog">
        <CustomPingFields {...fields} />
        <fieldset
          className="friend-checklist"
          aria-describedby={errors.receiverId ? `${formId}-friend-error` : undefined}
        >
          <legend className="field__label">Send to</legend>
          {friends.length === 0 && <p className="send-dialog__empty">Add friends first.</p>}
          {friends.map((f) => (
            <label key={f.id} className="friend-checklist__row">
              <input
                type="radio"
                name={`${formId}-friend`}
                checked={friendId === f.id}
                onChange={() => setFriendId(f.id)}
              />
              <Avatar user={f} size="sm" />
              <span className="friend-checklist__name">{displayName(f)}</span>
            </label>
          ))}
        </fieldset>
        {errors.receiverId && (
          <p id={`${formId}-friend-error`} className="field__error">
            {errors.receiverId}
          </p>
        )}
        <DialogActions onClick={send} loading={sending}>
          Send
        </DialogActions>
      </div>
    </Dialog>
  );
}
