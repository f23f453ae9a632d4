/**
 * When the guided tour on Home shows, and what it saves (spec section 4, "Guided tour";
 * docs/decisions.md, "The tour after the setup").
 *
 * The spec shows the tour while onboardingCompleted is false and onboardingStep is 0 or null,
 * but it also makes a person finish the setup first, and completing the setup sets
 * onboardingCompleted. So the setup marks the tour as due by saving onboardingStep 0 just before
 * it completes, and the tour keys on the step: it shows while the step is 0-4 and is done at 5
 * (finishing or skipping saves step 5 and completed). A person with no step at all (accounts
 * that never went through this setup) is not shown it; the help button opens it for anyone.
 */
import { LIMITS } from '@pingme/shared';

export const TOUR_STEPS = LIMITS.tourSteps;
/** The step saved when the tour is finished or skipped. */
export const TOUR_DONE_STEP = LIMITS.tourSteps;

export interface OnboardingState {
  onboardingCompleted: boolean;
  onboardingStep: number | null;
}

export function tourDue(user: OnboardingState | null | undefined): boolean {
  if (!user) return false;
  const step = user.onboardingStep;
  // The spec's own rule, for a person the setup does not hold back.
  if (!user.onboardingCompleted) return step === null || step === 0;
  return step !== null && step >= 0 && step < TOUR_DONE_STEP;
}

/** The step the tour opens at: where the person left it. */
export function tourStartStep(user: OnboardingState | null | undefined): number {
  const step = user?.onboardingStep ?? 0;
  return Math.min(Math.max(step, 0), TOUR_STEPS - 1);
}

/**
 * The step to save when Next brings the person to `next`, or null when nothing should be saved:
 * progress only moves forward, so a tour reopened with the help button never undoes a finished one.
 */
export function stepToSave(saved: number | null, next: number): number | null {
  return next > (saved ?? -1) ? next : null;
}

/**
 * The freshest view of the person's onboarding: the session's copy and the device database's
 * copy can lag each other by one sync, and both fields only ever move forward.
 */
export function mergeOnboarding(
  a: OnboardingState | null | undefined,
  b: OnboardingState | null | undefined,
): OnboardingState | null {
  if (!a || !b) return a ?? b ?? null;
  const steps = [a.onboardingStep, b.onboardingStep].filter((s): s is number => s !== null);
  return {
    onboardingCompleted: a.onboardingCompleted || b.onboardingCompleted,
    onboardingStep: steps.length ? Math.max(...steps) : null,
  };
}
