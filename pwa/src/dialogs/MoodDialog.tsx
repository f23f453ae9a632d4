/** Share a mood with one friend (spec: "Mood dialog"): 24 moods, an optional note (≤ 200). */
import { LIMITS, displayName, type MoodName, type UserSummary } from '@pingme/shared';
import { useState, type FormEvent } from 'react';
import { Dialog, DialogActions } from '../components/Dialog';
import { cx } from '../components/cx';
import { CountedTextArea } from '../components/common/CountedTextArea';
import { MOOD_OPTIONS } from '../components/friends/moods';
import { useBusyWrite } from '../components/common/useBusyWrite';
import { MOOD_ERROR, shareMood } from '../writes/moods';
import { toast } from '../stores';
import '../styles/friends.css';

export interface MoodDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  meId: string;
  friend: UserSummary;
}

export function MoodDialog({ open, onOpenChange, meId, friend }: MoodDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Share your mood"
      description={`Let ${displayName(friend)} know how you're feeling.`}
    >
      {open && <MoodForm meId={meId} friend={friend} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

const NO_MOOD = 'Please select a mood to share';

function MoodForm({ meId, friend, onDone }: { meId: string; friend: UserSummary; onDone(): void }) {
  const [mood, setMood] = useState<MoodName | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const { busy, run } = useBusyWrite({ keepBusyAfterSuccess: true });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = MOOD_OPTIONS.find((m) => m.mood === mood);
    if (!chosen) {
      setError(NO_MOOD);
      toast({ title: 'No mood selected', description: NO_MOOD, variant: 'destructive' });
      return;
    }
    await run(
      async () => {
        await shareMood({
          meId,
          friendId: friend.id,
          mood: chosen.mood,
          emoji: chosen.emoji,
          note: note.trim() || null,
        });
        toast({
          title: `${chosen.emoji} Mood shared`,
          description: `${displayName(friend)} will see you're feeling ${chosen.mood}.`,
          variant: 'success',
        });
        onDone();
      },
      { description: MOOD_ERROR },
    );
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <fieldset className="fr-choices-field" aria-describedby={error ? 'mood-error' : undefined}>
        <legend className="field__label">How are you feeling?</legend>
        <div className="fr-choices fr-choices--moods">
          {MOOD_OPTIONS.map((m) => (
            <label key={m.mood} className={cx('fr-choice', mood === m.mood && 'is-selected')}>
              <input
                type="radio"
                name="mood"
                value={m.mood}
                checked={mood === m.mood}
                onChange={() => {
                  setMood(m.mood);
                  setError(undefined);
                }}
                className="visually-hidden"
              />
              <span className="fr-choice__emoji" aria-hidden="true">
                {m.emoji}
              </span>
              <span className="fr-choice__label">{m.label}</span>
            </label>
          ))}
        </div>
        {error && (
          <p id="mood-error" className="field__error" role="alert">
            {error}
          </p>
        )}
      </fieldset>
      <CountedTextArea
        label="Add a note (optional)"
        value={note}
        maxLength={LIMITS.moodNote}
        onChange={setNote}
        placeholder="What's on your mind?"
      />
      <DialogActions type="submit" loading={busy}>
        Share Mood
      </DialogActions>
    </form>
  );
}
