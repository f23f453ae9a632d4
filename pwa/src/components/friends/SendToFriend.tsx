/**
 * The two ways to ping one friend on /ping-friend/{id}: a prompt from the list, or a custom
 * ping (text ≤ 200 and an emoji). Both go through the outbox; `onSent` runs after the toast.
 */
import { sentOrSaved } from '../../lib/sent-toast';
import { CustomPingBody, type Prompt, type UserSummary } from '@pingme/shared';
import { useState, type FormEvent } from 'react';
import { toast } from '../../stores';
import { Button } from '../Button';
import { Tabs } from '../Tabs';
import {
  CustomPingFields,
  useCustomPingFields,
  type CustomPingErrors,
} from '../common/CustomPingFields';
import { useBusyWrite } from '../common/useBusyWrite';
import { SendIcon } from '../icons';
import { PromptPicker } from './PromptPicker';
import { CUSTOM_PING_ERROR, SEND_PING_ERROR, sendPing } from '../../writes/pings';
import { fieldErrors } from '../../hooks/useZodForm';

export interface SendToFriendProps {
  me: UserSummary;
  friend: UserSummary;
  prompts: readonly Prompt[];
  onSent(): void;
}

const sentToast = (text: string) =>
  sentOrSaved({
    title: 'Pings sent! 🎉',
    description: `Sent "${text}" to your friend`,
    variant: 'success' as const,
  });

export function SendToFriend(props: SendToFriendProps) {
  return (
    <Tabs
      label="What to send"
      defaultValue="prompt"
      items={[
        { value: 'prompt', label: 'Prompt', content: <PromptForm {...props} /> },
        { value: 'custom', label: 'Custom ping', content: <CustomForm {...props} /> },
      ]}
    />
  );
}

function PromptForm({ me, friend, prompts, onSent }: SendToFriendProps) {
  const [promptId, setPromptId] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const { busy, run } = useBusyWrite({ keepBusyAfterSuccess: true });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const prompt = prompts.find((p) => p.id === promptId);
    if (!prompt) {
      setError('Please choose a prompt');
      return;
    }
    const failed = { description: SEND_PING_ERROR };
    await run(async () => {
      await sendPing(me, friend, { kind: 'prompt', prompt }, failed);
      toast(sentToast(prompt.text));
      onSent();
    }, failed);
  };

  if (prompts.length === 0) {
    return <p className="fr-muted">Your prompts are on their way from the server…</p>;
  }
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <PromptPicker
        prompts={prompts}
        value={promptId}
        error={error}
        onChange={(id) => {
          setPromptId(id);
          setError(undefined);
        }}
      />
      <Button type="submit" size="lg" block loading={busy} className="fr-send">
        <SendIcon /> Send Ping
      </Button>
    </form>
  );
}

function CustomForm({ me, friend, onSent }: SendToFriendProps) {
  const { text, emoji, setErrors, fields } = useCustomPingFields();
  const { busy, run } = useBusyWrite({ keepBusyAfterSuccess: true });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = CustomPingBody.safeParse({
      receiverId: friend.id,
      customText: text,
      ...(emoji ? { customEmoji: emoji } : {}),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error) as CustomPingErrors);
      return;
    }
    const body = parsed.data;
    await run(
      async () => {
        await sendPing(
          me,
          friend,
          { kind: 'custom', text: body.customText, emoji: body.customEmoji },
          CUSTOM_PING_ERROR,
        );
        toast(sentToast(body.customText));
        onSent();
      },
      { title: 'Failed to send', description: 'Could not send your custom ping' },
    );
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <CustomPingFields {...fields} />
      <Button type="submit" size="lg" block loading={busy} className="fr-send">
        <SendIcon /> Send Custom Ping
      </Button>
    </form>
  );
}
