/**
 * Sending friend requests from search results, with what this screen has just done kept as
 * overrides until the pull brings the friendship row (see relation.ts).
 */
import { displayName, type UserSummary } from '@pingme/shared';
import { useCallback, useState } from 'react';
import { toast } from '../../stores';
import type { SearchRelation } from './relation';
import { sendFriendRequest } from '../../writes/friends';

export function useAddFriend() {
  const [overrides, setOverrides] = useState<ReadonlyMap<string, SearchRelation>>(new Map());
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  const setOverride = useCallback((id: string, relation: SearchRelation) => {
    setOverrides((m) => new Map(m).set(id, relation));
  }, []);

  const add = useCallback(
    async (person: UserSummary) => {
      setBusy((s) => new Set(s).add(person.id));
      try {
        const answer = await sendFriendRequest(person.id);
        if (answer.autoAccepted) {
          setOverride(person.id, 'friends');
          toast({ title: `You're now friends with ${displayName(person)}!`, variant: 'success' });
        } else {
          setOverride(person.id, 'sent');
          toast({
            title: 'Friend request sent',
            description: `${displayName(person)} will see it.`,
          });
        }
      } catch {
        toast({
          title: 'Error',
          description: 'Failed to send friend request',
          variant: 'destructive',
        });
      } finally {
        setBusy((s) => {
          const next = new Set(s);
          next.delete(person.id);
          return next;
        });
      }
    },
    [setOverride],
  );

  return { overrides, busy, add, setOverride };
}
