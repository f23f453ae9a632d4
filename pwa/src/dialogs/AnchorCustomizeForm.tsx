/**
 * The anchor dialog's second step: the friend, the message, emoji, colour and an optional label;
 * validated by the shared CreateAnchorBody (the server's own messages), written through the
 * outbox with an optimistic anchor row.
 */
import {
  ANCHOR_COLOR_FORM_DEFAULT,
  CreateAnchorBody,
  LIMITS,
  anchorCustomRewrite,
  displayName,
  uuidv7,
  type Anchor,
  type SelfUser,
} from '@pingme/shared';
import { useId, useState, type CSSProperties, type FormEvent, type ReactNode } from 'react';
import { Button } from '../components/Button';
import { TextField } from '../components/TextField';
import { useBusyWrite } from '../components/common/useBusyWrite';
import { fieldErrors } from '../hooks/useZodForm';
import { toast } from '../stores';
import { ANCHOR_ERROR_TOAST, createAnchor } from '../writes/anchors';
import {
  activeAnchors,
  anchorPartnerId,
  incomingRequest,
  type AnchorTemplate,
} from './anchor-templates';
import type { FriendRow } from './AnchorDialog';

type Field = 'friendId' | 'text' | 'emoji' | 'color' | 'label';

interface Props {
  me: SelfUser;
  friends: FriendRow[];
  anchors: Anchor[];
  initialFriendId: string;
  template: AnchorTemplate | null;
  onBack(): void;
  onDone(): void;
}

export function AnchorCustomizeForm(props: Props) {
  const { me, friends, anchors, template, onBack, onDone } = props;
  const ids = useId();
  const [values, setValues] = useState<Record<Field, string>>({
    friendId: props.initialFriendId,
    text: template?.text ?? '',
    emoji: template?.emoji ?? '⚓',
    color: template?.color ?? ANCHOR_COLOR_FORM_DEFAULT,
    label: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const { busy, run } = useBusyWrite({ keepBusyAfterSuccess: true });

  const anchored = new Set(activeAnchors(anchors, me.id).map((a) => anchorPartnerId(a, me.id)));
  const choices = friends.filter(
    (f) =>
      f.id === props.initialFriendId ||
      !anchored.has(f.id) ||
      incomingRequest(anchors, me.id, f.id),
  );
  const set = (field: Field) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));
  /** A text field's value, onChange and error (as useZodForm's field()). */
  const field = (name: Field) => ({
    value: values[name],
    onChange: set(name),
    error: errors[name],
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const id = uuidv7();
    const parsed = CreateAnchorBody.safeParse({
      id,
      friendId: values.friendId,
      text: values.text,
      emoji: values.emoji,
      color: values.color,
      ...(values.label.trim() ? { label: values.label } : {}),
    });
    if (!parsed.success) {
      const found = fieldErrors(parsed.error) as Partial<Record<Field, string>>;
      setErrors(found);
      const first = Object.values(found)[0];
      toast({ title: 'Invalid Input', description: first, variant: 'destructive' });
      return;
    }
    setErrors({});
    const body = parsed.data;
    const friend = friends.find((f) => f.id === body.friendId);
    if (!friend) return;
    const incoming = incomingRequest(anchors, me.id, friend.id);
    await run(
      async () => {
        await createAnchor({
          me,
          friend,
          request: { ...body, id },
          ...(incoming ? { incoming } : {}),
        });
        if (incoming) {
          toast({ title: "Anchor request accepted! You're now connected.", variant: 'success' });
        } else {
          toast({
            title: 'Anchor request sent',
            description: `${displayName(friend)} will see your request in Activity.`,
            variant: 'success',
          });
        }
        onDone();
      },
      { description: ANCHOR_ERROR_TOAST },
    );
  };

  const preview = values.text.trim() ? anchorCustomRewrite(values.text) : '';
  return (
    <form className="form anchor-dialog" onSubmit={onSubmit} noValidate>
      <h3 className="anchor-dialog__step">Customize your anchor</h3>
      <LabelledControl id={`${ids}-friend`} label="Friend">
        <select
          id={`${ids}-friend`}
          className="input"
          value={values.friendId}
          onChange={set('friendId')}
        >
          {choices.map((f) => (
            <option key={f.id} value={f.id}>
              {displayName(f)}
              {incomingRequest(anchors, me.id, f.id) ? ' (asked you)' : ''}
            </option>
          ))}
        </select>
      </LabelledControl>
      <TextField
        label="Anchor message"
        {...field('text')}
        hint={`${[...values.text].length}/${LIMITS.promptText}`}
        autoComplete="off"
      />
      <div className="form__pair">
        <TextField label="Emoji" {...field('emoji')} autoComplete="off" />
        <LabelledControl id={`${ids}-color`} label="Colour">
          <input
            id={`${ids}-color`}
            type="color"
            className="input anchor-dialog__color"
            value={values.color}
            onChange={set('color')}
          />
        </LabelledControl>
      </div>
      <TextField
        label="Label (optional)"
        {...field('label')}
        hint="Shown on your profile instead of their name"
        maxLength={40}
        autoComplete="off"
      />
      {preview && (
        <p
          className="anchor-preview"
          style={{ '--anchor-color': values.color } as CSSProperties}
          aria-live="polite"
        >
          <span aria-hidden="true">{values.emoji || '⚓'}</span> They send you: “{preview}”
        </p>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button type="submit" loading={busy}>
          Create Anchor
        </Button>
      </div>
    </form>
  );
}

/** A labelled control that is not a text input (TextField draws those). */
function LabelledControl({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}
