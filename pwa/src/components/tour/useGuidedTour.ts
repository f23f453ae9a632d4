/**
 * Whether the guided tour is open, where it starts, and saving its progress through the outbox
 * (PATCH /api/user/onboarding). Rules in tour-rules.ts.
 */
import type { SyncUser } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useState } from 'react';
import { db } from '../../db';
import { useSession } from '../../stores';
import { localWrite } from '../../sync/local-write';
import {
  TOUR_DONE_STEP,
  mergeOnboarding,
  stepToSave,
  tourDue,
  tourStartStep,
  type OnboardingState,
} from './tour-rules';

async function saveOnboarding(userId: string, patch: Partial<OnboardingState>) {
  const self = (await db.users.get(userId)) as SyncUser | undefined;
  const session = useSession.getState();
  if (session.user?.id === userId)
    session.setUser({ ...session.user, ...patch }, session.confirmed);
  await localWrite({
    request: {
      method: 'PATCH',
      path: '/api/user/onboarding',
      body: {
        ...(patch.onboardingStep !== undefined ? { step: patch.onboardingStep } : {}),
        ...(patch.onboardingCompleted ? { completed: true } : {}),
      },
    },
    effects:
      self?.relation === 'self'
        ? [{ table: 'users', key: userId, after: { ...self, ...patch } }]
        : [],
  });
}

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
      if (next !== null) void saveOnboarding(userId, { onboardingStep: next });
    },
    [reopened, saved, userId],
  );

  const finish = useCallback(() => {
    setReopened(false);
    setClosed(true);
    if (!userId || done) return;
    void saveOnboarding(userId, { onboardingStep: TOUR_DONE_STEP, onboardingCompleted: true });
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
