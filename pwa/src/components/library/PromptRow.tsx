/**
 * One prompt of the Library: emoji, text, 'Default prompt' or 'Custom prompt', the friends it is
 * assigned to (expandable), and Assign, Send and (custom prompts only) Edit and Delete.
 */
import { displayName, type Prompt } from '@pingme/shared';
import { useId, useState } from 'react';
import { PENDING_FIELD } from '../../sync/local-write';
import { Avatar } from '../Avatar';
import { Button } from '../Button';
import { cx } from '../cx';
import { ClockIcon } from '../icons';
import { assignedLabel, promptEmoji } from './library-rules';

export interface PromptRowProps {
  prompt: Prompt;
  onAssign(prompt: Prompt): void;
  onSend(prompt: Prompt): void;
  onEdit(prompt: Prompt): void;
  onDelete(prompt: Prompt): void;
}

export function PromptRow({ prompt, onAssign, onSend, onEdit, onDelete }: PromptRowProps) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const pending = (prompt as Prompt & { [PENDING_FIELD]?: boolean })[PENDING_FIELD] === true;
  const count = prompt.assignments.length;
  const custom = !prompt.isDefault;

  return (
    <li className={cx('prompt-row', pending && 'prompt-row--pending')}>
      <span className="prompt-row__emoji" aria-hidden="true">
        {promptEmoji(prompt)}
      </span>
      <div className="prompt-row__body">
        <p className="prompt-row__text">{prompt.text}</p>
        <div className="prompt-row__meta">
          <span className={cx('tag', custom ? 'tag--custom' : 'tag--default')}>
            {custom ? 'Custom prompt' : 'Default prompt'}
          </span>
          {pending && (
            <span className="prompt-row__pending">
              <ClockIcon aria-hidden="true" /> Saving…
            </span>
          )}
          {count > 0 ? (
            <button
              type="button"
              className="prompt-row__toggle"
              aria-expanded={expanded}
              aria-controls={listId}
              onClick={() => setExpanded((e) => !e)}
            >
              {assignedLabel(count)}
              <span aria-hidden="true" className="prompt-row__chevron">
                {expanded ? '▴' : '▾'}
              </span>
            </button>
          ) : (
            <span className="prompt-row__unassigned">{assignedLabel(0)}</span>
          )}
        </div>
        {expanded && count > 0 && (
          <ul id={listId} className="prompt-row__friends">
            {prompt.assignments.map((a) => (
              <li key={a.friendId}>
                <Avatar user={a.friend} size="sm" />
                <span>{displayName(a.friend)}</span>
              </li>
            ))}
          </ul>
        )}
        <div className="prompt-row__actions">
          <Button size="sm" variant="secondary" onClick={() => onAssign(prompt)}>
            Assign<span className="visually-hidden"> “{prompt.text}”</span>
          </Button>
          <Button size="sm" onClick={() => onSend(prompt)}>
            Send<span className="visually-hidden"> “{prompt.text}”</span>
          </Button>
          {custom && (
            <Button size="sm" variant="secondary" onClick={() => onEdit(prompt)}>
              Edit<span className="visually-hidden"> “{prompt.text}”</span>
            </Button>
          )}
          {custom && (
            <Button size="sm" variant="danger" onClick={() => onDelete(prompt)}>
              Delete<span className="visually-hidden"> “{prompt.text}”</span>
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}
