/**
 * 'Create New Ping Prompt': text (required, at most 100, with a counter) and an optional emoji
 * (at most 4, 💭 by default). prompt.create with a client id through the outbox.
 */
import { DEFAULT_PROMPT_EMOJI, LIMITS } from '@pingme/shared';
import { useRef, useState } from 'react';
import { toast } from '../stores';
import { Button } from '../components/Button';
import { Dialog, DialogClose } from '../components/Dialog';
import { TextField } from '../components/TextField';
import { CountedTextArea } from '../components/setup/CountedTextArea';
import {
  LIBRARY_MESSAGES,
  validatePromptForm,
  type PromptForm,
} from '../components/library/library-rules';
import { createPrompt } from '../writes/prompts';

export interface CreatePromptDialogProps {
  open: boolean;
  meId: string;
  onOpenChange(open: boolean): void;
}

export function CreatePromptDialog({ open, meId, onOpenChange }: CreatePromptDialogProps) {
  const [form, setForm] = useState<PromptForm>({ text: '', emoji: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof PromptForm, string>>>({});
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const close = (next: boolean) => {
    if (!next) {
      setForm({ text: '', emoji: '' });
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
    setBusy(true);
    try {
      await createPrompt(meId, result.text, result.emoji, {
        description: LIBRARY_MESSAGES.createFailed,
      });
      toast({ title: 'Prompt created!', description: result.text, variant: 'success' });
      close(false);
    } catch {
      toast({ title: 'Error', description: LIBRARY_MESSAGES.createFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Create New Ping Prompt"
      description="Write it the way you would say it, e.g. “Ping me when you see a rainbow”."
    >
      <form ref={formRef} className="form" onSubmit={submit} noValidate>
        <CountedTextArea
          label="Prompt message"
          value={form.text}
          max={LIMITS.promptText}
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
        <div className="dialog__actions">
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" loading={busy}>
            Create Prompt
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
