/**
 * Send a surprise message to one friend (spec: "Surprise message dialog"): text ≤ 200 with a
 * counter and one of the 10 surprise emojis (💫 by default). Sent as ping.sendCustom with
 * surprise: true, through the outbox.
 */
import { sentOrSaved } from '../lib/sent-toast';
import {
  CustomPingBody,
  DEFAULT_SURPRISE_EMOJI,
  LIMITS,
  SURPRISE_EMOJIS,
  displayName,
  type UserSummary,
} from '@pingme/shared';
import { useState, type FormEvent } from 'react';
import { Dialog, DialogActions } from '../components/Dialog';
import { cx } from '../components/cx';
import { CountedTextArea } from '../components/common/CountedTextArea';
import { useBusyWrite } from '../components/common/useBusyWrite';
import { sendPing } from '../writes/pings';
import { toast } from '../stores';
import '../styles/friends.css';

export interface SurpriseDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  me: UserSummary;
  friend: UserSummary;
}

export function SurpriseDialog({ open, onOpenChange, me, friend }: SurpriseDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Send a surprise"
      description={`Brighten ${displayName(friend)}'s day with a little message.`}
    >
      {open && <SurpriseForm me={me} friend={friend} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

const textRule = CustomPingBody.shape.customText;
const SURPRISE_FAILED = { title: 'Surprise failed', description: 'Could not send surprise ping' };

function SurpriseForm({
  me,
  friend,
  onDone,
}: {
  me: UserSummary;
  friend: UserSummary;
  onDone(): void;
}) {
  const [text, setText] = useState('');
  const [emoji, setEmoji] = useState<string>(DEFAULT_SURPRISE_EMOJI);
  const [error, setError] = useState<string>();
  const { busy, run } = useBusyWrite({ keepBusyAfterSuccess: true });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = textRule.safeParse(text);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    await run(async () => {
      await sendPing(me, friend, { kind: 'surprise', text: parsed.data, emoji }, SURPRISE_FAILED);
      toast(
        sentOrSaved({
          title: `${emoji} Surprise sent!`,
          description: `${displayName(friend)} will love it.`,
          variant: 'success',
        }),
      );
      onDone();
    }, SURPRISE_FAILED);
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <CountedTextArea
        label="Your message"
        value={text}
        maxLength={LIMITS.surpriseText}
        error={error}
        onChange={(value) => {
          setText(value);
          if (error) setError(undefined);
        }}
        placeholder="Thinking of you!"
      />
      <fieldset className="fr-choices-field">
        <legend className="field__label">Pick an emoji</legend>
        <div className="fr-choices fr-choices--emojis">
          {SURPRISE_EMOJIS.map((e) => (
            <label
              key={e}
              className={cx('fr-choice fr-choice--emoji', emoji === e && 'is-selected')}
            >
              <input
                type="radio"
                name="surprise-emoji"
                value={e}
                checked={emoji === e}
                onChange={() => setEmoji(e)}
                className="visually-hidden"
              />
              <span className="fr-choice__emoji">{e}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <DialogActions type="submit" loading={busy}>
        Send Surprise
      </DialogActions>
    </form>
  );
}
