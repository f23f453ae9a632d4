/** A scrollable list of friends to pick from: checkboxes (several) or radio buttons (one). */
import { displayName } from '@pingme/shared';
import { Avatar } from '../Avatar';
import type { FriendRow } from '../home/useHomeData';

export interface FriendPickerProps {
  legend: string;
  mode: 'several' | 'one';
  friends: readonly FriendRow[];
  selected: readonly string[];
  onChange(selected: string[]): void;
  /** Shown checked and unchangeable, with this note (e.g. already assigned). */
  fixed?: { ids: readonly string[]; note: string };
}

export function FriendPicker({
  legend,
  mode,
  friends,
  selected,
  onChange,
  fixed,
}: FriendPickerProps) {
  const toggle = (id: string) => {
    if (mode === 'one') return onChange([id]);
    onChange(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);
  };
  return (
    <fieldset className="friend-picker">
      <legend className="visually-hidden">{legend}</legend>
      {friends.map((f) => {
        const locked = fixed?.ids.includes(f.id) ?? false;
        return (
          <label key={f.id} className="friend-picker__row">
            <input
              type={mode === 'one' ? 'radio' : 'checkbox'}
              name={mode === 'one' ? 'friend' : undefined}
              checked={locked || selected.includes(f.id)}
              disabled={locked}
              onChange={() => toggle(f.id)}
            />
            <Avatar user={f} size="sm" />
            <span className="friend-picker__name">{displayName(f)}</span>
            {locked && <span className="friend-picker__note">{fixed!.note}</span>}
          </label>
        );
      })}
    </fieldset>
  );
}
