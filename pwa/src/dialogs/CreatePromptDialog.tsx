/**
 * The spec's 'create or edit prompt' dialog. 'Create New Ping Prompt': text (required, at most
 * 100, with a counter) and an optional emoji (at most 4, 💭 by default), prompt.create with a
 * client id through the outbox; given `editing`, 'Edit Ping Prompt' with its text and emoji,
 * prompt.update.
 */
import { DEFAULT_PROMPT_EMOJI, LIMITS } from '@pingme/shared';
import { useRef, useState } from 'react';
import { toast } from '../stores';
import { Dialog, DialogActions } from '../components/Dialog';
import { TextField } from '../components/TextField';
import { CountedTextArea } from '../components/common/CountedTextArea';
import { useBusyWrite } from '../components/common/useBusyWrite';
import {
  LIBRARY_MESSAGES,
  validatePromptForm,
  type PromptForm,
} from '../components/library/library-rules';
import type { Prompt } from '@pingme/shared';
import { createPrompt, updatePrompt } from '../writes/prompts';
import '../styles/setup.css';

export interface CreatePromptDialogProps {
  open: boolean;
  meId: string;
  /** The prompt to edit; absent: a new one. */
  editing?: Prompt | null;
  onOpenChange(open: boolean): void;
}

export function CreatePromptDialog(props: CreatePromptDialogProps) {
  // A fresh form for each prompt opened (and for each new one).
  return <PromptDialog key={props.editing?.id ?? 'new'} {...props} />;
}

function PromptDialog({ open, meId, editing, onOpenChange }: CreatePromptDialogProps) {
  const initial = { text: editing?.text ?? '', emoji: editing?.emoji ?? '' };
  const [form, setForm] = useState<PromptForm>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof PromptForm, string>>>({});
  const { busy, run } = useBusyWrite();
  const formRef = useRef<HTMLFormElement>(null);

  const close = (next: boolean) => {
    if (!next) {
      setForm(initial);
      setErrors({});
    }
    onOpenChange(next);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const result = validatePromptForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      if (result.errors.text === LIBRARY_MESSAGES.missingText)
        toast({
          title: LIBRARY_MESSAGES.missingTextToast,
          description: LIBRARY_MESSAGES.missingText,
          variant: 'destructive',
        });
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const failed = {
      description: editing ? LIBRARY_MESSAGES.updateFailed : LIBRARY_MESSAGES.createFailed,
    };
    await run(async () => {
      if (editing) {
        await updatePrompt(editing, result.text, result.emoji, failed);
        toast({ title: 'Prompt updated!', description: result.text, variant: 'success' });
      } else {
        await createPrompt(meId, result.text, result.emoji, failed);
        toast({ title: 'Prompt created!', description: result.text, variant: 'success' });
      }
      close(false);
    }, failed);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={editing ? 'Edit Ping Prompt' : 'Create New Ping Prompt'}
      description="Write it the way you would say it, e.g. “Ping me when you see a rainbow”."
    >
      <form ref={formRef} className="form" onSubmit={submit} noValidate>
        <CountedTextArea
          label="Prompt message"
          value={form.text}
          maxLength={LIMITS.promptText}
          look="tall"
          rows={2}
          placeholder="Ping me when…"
          error={errors.text}
          onChange={(text) => {
            setForm((f) => ({ ...f, text }));
            if (errors.text) setErrors((er) => ({ ...er, text: undefined }));
          }}
        />
        <TextField
          label="Emoji (optional)"
          value={form.emoji}
          placeholder={DEFAULT_PROMPT_EMOJI}
          hint={`Up to ${LIMITS.promptEmoji} emoji. ${DEFAULT_PROMPT_EMOJI} if left empty.`}
          error={errors.emoji}
          className="emoji-field"
          onChange={(e) => {
            setForm((f) => ({ ...f, emoji: e.target.value }));
            if (errors.emoji) setErrors((er) => ({ ...er, emoji: undefined }));
          }}
        />
        <DialogActions type="submit" loading={busy}>
          {editing ? 'Save Changes' : 'Create Prompt'}
        </DialogActions>
      </form>
    </Dialog>
  );
}
