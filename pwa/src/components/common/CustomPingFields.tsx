/**
 * The message and emoji of a custom ping, as the friend's page (/ping-friend/{id}) and Home's
 * Custom Ping dialog both ask for them: one label, counter and rule each, so the two screens never
 * disagree. The counter counts what the limit counts (UTF-16 units, as the shared schema's `max`
 * and the text area's `maxLength` do), and an emoji over the limit is refused with the shared
 * schema's message when the form is sent.
 */
import { DEFAULT_PROMPT_EMOJI, LIMITS } from '@pingme/shared';
import { useState } from 'react';
import { TextField } from '../TextField';
import { CountedTextArea } from './CountedTextArea';

export interface CustomPingFieldsProps {
  text: string;
  emoji: string;
  errors: { customText?: string | undefined; customEmoji?: string | undefined };
  onText(value: string): void;
  onEmoji(value: string): void;
}

/** A form's errors by field: the two fields' own, and whatever else the form asks for. */
export type CustomPingErrors = Partial<Record<'customText' | 'customEmoji' | 'receiverId', string>>;

/**
 * The two fields' state for a form: what was typed, the errors the shared schema gave (each
 * cleared as its field is edited), and the props for CustomPingFields.
 */
export function useCustomPingFields() {
  const [text, setText] = useState('');
  const [emoji, setEmoji] = useState('');
  const [errors, setErrors] = useState<CustomPingErrors>({});
  const fields: CustomPingFieldsProps = {
    text,
    emoji,
    errors,
    onText: (value) => {
      setText(value);
      setErrors((x) => ({ ...x, customText: undefined }));
    },
    onEmoji: (value) => {
      setEmoji(value);
      setErrors((x) => ({ ...x, customEmoji: undefined }));
    },
  };
  const reset = () => {
    setText('');
    setEmoji('');
    setErrors({});
  };
  return { text, emoji, errors, setErrors, reset, fields };
}

export function CustomPingFields({ text, emoji, errors, onText, onEmoji }: CustomPingFieldsProps) {
  return (
    <>
      <CountedTextArea
        label="Your message"
        value={text}
        maxLength={LIMITS.customPingText}
        error={errors.customText}
        placeholder="Thinking of you…"
        onChange={onText}
      />
      <TextField
        label="Emoji (optional)"
        value={emoji}
        placeholder={DEFAULT_PROMPT_EMOJI}
        className="emoji-field"
        error={errors.customEmoji}
        hint={`Up to ${LIMITS.promptEmoji} emoji; ${DEFAULT_PROMPT_EMOJI} when empty`}
        onChange={(e) => onEmoji(e.target.value)}
      />
    </>
  );
}
