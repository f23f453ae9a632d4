/**
 * A one-off custom ping to one friend: text (up to 200, with a counter), an emoji (default 💭)
 * and the friend. Validated with the shared CustomPingBody, so messages match the server's.
 */
import {
  CustomPingBody,
  DEFAULT_PROMPT_EMOJI,
  LIMITS,
  displayName,
  graphemeCount,
  type SelfUser,
} from '@pingme/shared';
import { useId, useState } from 'react';
import { afterNextPaint } from '../lib/frames';
import { toast } from '../stores';
import { CUSTOM_PING_ERROR, sendPing } from '../writes/pings';
import { Avatar } from '../components/Avatar';
import { Dialog, DialogActions } from '../components/Dialog';
import { TextField } from '../components/TextField';
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

type Errors = Partial<Record<'customText' | 'customEmoji' | 'receiverId', string>>;

export function CustomPingDialog({ open, me, friends, onOpenChange }: CustomPingDialogProps) {
  const [text, setText] = useState('');
  const [emoji, setEmoji] = useState('');
  const [friendId, setFriendId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const { busy: sending, run } = useBusyWrite();
  const textId = useId();

  const reset = () => {
    setText('');
    setEmoji('');
    setFriendId(null);
    setErrors({});
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
      setErrors(fieldErrors(parsed.error) as Errors);
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

  const length = [...text].length;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Custom Ping"
      description="Write your own ping to one friend."
    >
      <div className="custom-dialog">
        <div className="field">
          <label className="field__label" htmlFor={textId}>
            Message
          </label>
          <textarea
            id={textId}
            className="input custom-dialog__text"
            rows={3}
            value={text}
            maxLength={LIMITS.customPingText}
            aria-invalid={errors.customText ? true : undefined}
            aria-describedby={`${textId}-count${errors.customText ? ` ${textId}-error` : ''}`}
            onChange={(e) => setText(e.target.value)}
            placeholder="Thinking of you…"
          />
          <p id={`${textId}-count`} className="field__hint custom-dialog__count">
            {length}/{LIMITS.customPingText}
          </p>
          {errors.customText && (
            <p id={`${textId}-error`} className="field__error">
              {errors.customText}
            </p>
          )}
        </div>
        <TextField
          label="Emoji"
          value={emoji}
          placeholder={DEFAULT_PROMPT_EMOJI}
          hint="Optional, up to 4 characters"
          error={errors.customEmoji}
          onChange={(e) => {
            if (graphemeCount(e.target.value) <= LIMITS.promptEmoji) setEmoji(e.target.value);
          }}
        />
        <fieldset
          className="friend-checklist"
          aria-describedby={errors.receiverId ? `${textId}-friend-error` : undefined}
        >
          <legend className="field__label">Send to</legend>
          {friends.length === 0 && <p className="send-dialog__empty">Add friends first.</p>}
          {friends.map((f) => (
            <label key={f.id} className="friend-checklist__row">
              <input
                type="radio"
                name={`${textId}-friend`}
                checked={friendId === f.id}
                onChange={() => setFriendId(f.id)}
              />
              <Avatar user={f} size="sm" />
              <span className="friend-checklist__name">{displayName(f)}</span>
            </label>
          ))}
        </fieldset>
        {errors.receiverId && (
          <p id={`${textId}-friend-error`} className="field__error">
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
