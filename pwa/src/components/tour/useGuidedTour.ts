/**
 * Whether the guided tour is open, where it starts, and saving its progress through the outbox
 * (onboarding.step). Rules in tour-rules.ts.
 */
import type { SyncUser } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useState } from 'react';
import { db } from '../../db';
import { useSession } from '../../stores';
import { saveTourProgress } from '../../writes/profile';
import { TOUR_DONE_STEP, mergeOnboarding, stepToSave, tourDue, tourStartStep } from './tour-rules';

export interface GuidedTourState {
  open: boolean;
  startStep: number;
  /** Opened by the help button (progress is not saved again). */
  reopened: boolean;
  reopen(): void;
  /** Next brought the person to `step`. */
  advance(step: number): void;
  /** Finished, skipped or closed. */
  finish(): void;
}

export function useGuidedTour(): GuidedTourState {
  const user = useSession((s) => s.user);
  const userId = user?.id;
  const self = useLiveQuery(
    async () => (userId ? ((await db.users.get(userId)) as SyncUser | undefined) : undefined),
    [userId],
  );
  const state = mergeOnboarding(user, self?.relation === 'self' ? self : null);
  const due = tourDue(state);
  const saved = state?.onboardingStep ?? null;
  const done = !!state?.onboardingCompleted && saved !== null && saved >= TOUR_DONE_STEP;
  const [reopened, setReopened] = useState(false);
  const [closed, setClosed] = useState(false);

  const advance = useCallback(
    (step: number) => {
      if (reopened || !userId) return;
      const next = stepToSave(saved, step);
      if (next !== null) void saveTourProgress(userId, { onboardingStep: next });
    },
    [reopened, saved, userId],
  );

  const finish = useCallback(() => {
    setReopened(false);
    setClosed(true);
    if (!userId || done) return;
    void saveTourProgress(userId, { onboardingStep: TOUR_DONE_STEP, onboardingCompleted: true });
  }, [done, userId]);

  const reopen = useCallback(() => setReopened(true), []);

  return {
    open: reopened || (due && !closed),
    startStep: reopened ? 0 : tourStartStep(state),
    reopened,
    reopen,
    advance,
    finish,
  };
}
