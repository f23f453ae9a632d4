/**
 * The simple view's tagline: the owner clicks it to edit (counter n/100), Enter or Save stores it
 * through the outbox, Escape or Cancel leaves it as it was. Others just read it.
 */
import { DEFAULT_TAGLINE, LIMITS, ProfileUpdateBody, type SelfUser } from '@pingme/shared';
import { useId, useState, type FormEvent } from 'react';
import { toast } from '../../stores';
import { Button } from '../Button';
import { saveProfile } from '../../writes/profile';

export function TaglineEditor({ me, tagline }: { me: SelfUser | null; tagline: string | null }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  const shown = tagline || DEFAULT_TAGLINE;

  if (!me) return <p className="profile-simple__tagline">{shown}</p>;

  if (!editing) {
    return (
      <button
        type="button"
        className="profile-simple__tagline profile-simple__tagline--editable"
        onClick={() => {
          setDraft(tagline ?? '');
          setError(undefined);
          setEditing(true);
        }}
        aria-label={`Tagline: ${shown}. Click to edit`}
      >
        {shown}
        <span className="profile-simple__edit-hint" aria-hidden="true">
          ✎
        </span>
      </button>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ProfileUpdateBody.safeParse({ tagline: draft });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    await saveProfile(me, parsed.data);
    setEditing(false);
    toast({ title: 'Profile Updated', description: 'Your tagline was saved.', variant: 'success' });
  };

  const count = [...draft].length;
  return (
    <form className="pf-tagline-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <label htmlFor={id} className="visually-hidden">
        Tagline
      </label>
      <input
        id={id}
        className="input"
        value={draft}
        autoFocus
        maxLength={LIMITS.tagline}
        placeholder={DEFAULT_TAGLINE}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ''}`}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            setEditing(false);
          }
        }}
      />
      <div className="pf-tagline-form__row">
        <span id={`${id}-count`} className="pf-tagline-form__count" aria-live="polite">
          {count}/{LIMITS.tagline}
        </span>
        <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
          Cancel
        </Button>
        <Button size="sm" type="submit">
          Save
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </form>
  );
}
