/**
 * Answering friend requests (spec section 4): Accept or Decline, then the row shows 'Accepted!'
 * or 'Declined' for 3 s (DELAYS_MS.acceptedLabel) while the request itself has already moved on
 * in Dexie. Accepting opens 'Friend Added!'. One provider per screen; rows read it by context.
 */
import { DELAYS_MS, displayName, type SyncFriendship } from '@pingme/shared';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { FriendAddedDialog } from '../../dialogs/FriendAddedDialog';
import { toast } from '../../stores';
import { acceptFriendRequest, declineFriendRequest } from '../../writes/friends';

export type RequestOutcome = 'accepted' | 'declined';

interface Answered {
  request: SyncFriendship;
  outcome: RequestOutcome;
}

interface RequestAnswers {
  answered: ReadonlyMap<string, Answered>;
  busy: ReadonlySet<string>;
  answer(request: SyncFriendship, outcome: RequestOutcome): Promise<void>;
}

const Ctx = createContext<RequestAnswers | null>(null);

export function RequestAnswersProvider({ children }: { children: ReactNode }) {
  const [answered, setAnswered] = useState<ReadonlyMap<string, Answered>>(new Map());
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [added, setAdded] = useState<{ id: string; name: string } | null>(null);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const answer = useCallback(async (request: SyncFriendship, outcome: RequestOutcome) => {
    setBusy((s) => new Set(s).add(request.id));
    try {
      if (outcome === 'accepted') await acceptFriendRequest(request);
      else await declineFriendRequest(request);
    } catch {
      toast({
        title: 'Error',
        description:
          outcome === 'accepted'
            ? 'Failed to accept friend request'
            : 'Failed to decline friend request',
        variant: 'destructive',
      });
      return;
    } finally {
      setBusy((s) => {
        const next = new Set(s);
        next.delete(request.id);
        return next;
      });
    }
    setAnswered((m) => new Map(m).set(request.id, { request, outcome }));
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setAnswered((m) => {
        const next = new Map(m);
        next.delete(request.id);
        return next;
      });
    }, DELAYS_MS.acceptedLabel);
    timers.current.add(timer);
    if (outcome === 'accepted') {
      toast({ title: 'Friend request accepted!', variant: 'success' });
      setAdded({ id: request.otherUserId, name: displayName(request.other) });
    } else {
      toast({ title: 'Friend request declined' });
    }
  }, []);

  const value = useMemo(() => ({ answered, busy, answer }), [answered, busy, answer]);
  return (
    <Ctx.Provider value={value}>
      {children}
      <FriendAddedDialog friend={added} onClose={() => setAdded(null)} />
    </Ctx.Provider>
  );
}

export function useRequestAnswers(): RequestAnswers {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useRequestAnswers needs a RequestAnswersProvider');
  return ctx;
}

/** The received requests to show: the waiting ones plus those answered in the last 3 s. */
export function withRecentlyAnswered(
  requests: readonly SyncFriendship[],
  answered: ReadonlyMap<string, Answered>,
): SyncFriendship[] {
  const ids = new Set(requests.map((r) => r.id));
  const recent = [...answered.values()].map((a) => a.request).filter((r) => !ids.has(r.id));
  return [...requests, ...recent].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
