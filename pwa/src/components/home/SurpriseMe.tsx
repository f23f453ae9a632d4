/**
 * 'Surprise Me': a random default prompt to a random friend (POST /api/pings through the
 * outbox). Needs friends and default prompts: 'Add friends and prompts first!' otherwise.
 */
import { sentOrSaved } from '../../lib/sent-toast';
import { displayName, type Prompt, type SelfUser } from '@pingme/shared';
import { useState } from 'react';
import { toast } from '../../stores';
import { Button } from '../Button';
import { StarIcon } from '../icons';
import { sendPing } from '../../writes/pings';
import type { FriendRow } from './useHomeData';

const pick = <T,>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

export interface SurpriseMeProps {
  me: SelfUser;
  friends: readonly FriendRow[];
  prompts: readonly Prompt[];
}

export function SurpriseMe({ me, friends, prompts }: SurpriseMeProps) {
  const [busy, setBusy] = useState(false);

  const surprise = async () => {
    if (friends.length === 0 || prompts.length === 0) {
      toast({ title: 'Add friends and prompts first!' });
      return;
    }
    const friend = pick(friends);
    const prompt = pick(prompts);
    setBusy(true);
    try {
      await sendPing(
        me,
        friend,
        { kind: 'prompt', prompt },
        { title: 'Surprise failed', description: 'Could not send surprise ping' },
      );
      toast(
        sentOrSaved({
          title: 'Surprise sent! 🎉',
          description: `Sent "${prompt.text}" to ${displayName(friend)}`,
          variant: 'success',
        }),
      );
    } catch {
      toast({
        title: 'Surprise failed',
        description: 'Could not send surprise ping',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button size="lg" block className="surprise-button" loading={busy} onClick={surprise}>
      <StarIcon aria-hidden="true" />
      Surprise Me
    </Button>
  );
}
