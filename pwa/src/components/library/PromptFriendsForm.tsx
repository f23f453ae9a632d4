/**
 * The body the Library's Assign and Send dialogs share: the prompt, the friends to pick from (or
 * why there are none), the error of the last try, and Cancel next to the dialog's action.
 */
import type { Prompt } from '@pingme/shared';
import { DialogActions } from '../Dialog';
import { FriendPicker, type FriendPickerProps } from './FriendPicker';
import { PromptPreview } from './PromptPreview';

export interface PromptFriendsFormProps extends Omit<FriendPickerProps, 'onChange'> {
  prompt: Prompt;
  onSelect(selected: string[]): void;
  /** Shown instead of the picker when there is no friend. */
  emptyText: string;
  error: string | null;
  action: { label: string; busy: boolean; onClick(): void };
}

export function PromptFriendsForm({
  prompt,
  onSelect,
  emptyText,
  error,
  action,
  ...picker
}: PromptFriendsFormProps) {
  return (
    <div className="library-dialog">
      <PromptPreview prompt={prompt} />
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
    </div>
  );
}
