/**
 * The body the Library's Assign and Send dialogs share under the prompt: the friends to pick from
 * (or why there are none), the error of the last try, and Cancel next to the dialog's action.
 */
import { DialogActions } from '../Dialog';
import { FriendPicker, type FriendPickerProps } from './FriendPicker';

export interface PromptFriendsFormProps extends Omit<FriendPickerProps, 'onChange'> {
  onSelect(selected: string[]): void;
  /** Shown instead of the picker when there is no friend. */
  emptyText: string;
  error: string | null;
  action: { label: string; busy: boolean; onClick(): void };
}

export function PromptFriendsForm({
  onSelect,
  emptyText,
  error,
  action,
  ...picker
}: PromptFriendsFormProps) {
  return (
    <>
      {picker.friends.length === 0 ? (
        <p className="library-dialog__empty">{emptyText}</p>
      ) : (
        <FriendPicker {...picker} onChange={onSelect} />
      )}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      <DialogActions
        onClick={action.onClick}
        loading={action.busy}
        disabled={picker.friends.length === 0}
      >
        {action.label}
      </DialogActions>
    </>
  );
}
