/** The prompt a Library dialog is about: its emoji (or the keyword guess) and its text. */
import type { Prompt } from '@pingme/shared';
import { promptEmoji } from './library-rules';

export function PromptPreview({ prompt }: { prompt: Pick<Prompt, 'emoji' | 'text'> }) {
  return (
    <p className="library-dialog__prompt">
      <span aria-hidden="true">{promptEmoji(prompt)}</span>
      {prompt.text}
    </p>
  );
}
