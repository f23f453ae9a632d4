import { describe, expect, it } from 'vitest';
import { mergeOnboarding, stepToSave, tourDue, tourStartStep } from './tour-rules';

const user = (onboardingCompleted: boolean, onboardingStep: number | null) => ({
  onboardingCompleted,
  onboardingStep,
});

describe('guided tour rules', () => {
  it('is due after the setup marked it (step 0) until it is finished (step 5)', () => {
    expect(tourDue(user(true, 0))).toBe(true);
    expect(tourDue(user(true, 3))).toBe(true);
    expect(tourDue(user(true, 5))).toBe(false);
  });

  it('is not due for a person who never went through the setup’s tour', () => {
    expect(tourDue(user(true, null))).toBe(false);
    expect(tourDue(null)).toBe(false);
  });

  it('keeps the spec’s rule for a person not past onboarding: step 0 or null', () => {
    expect(tourDue(user(false, null))).toBe(true);
    expect(tourDue(user(false, 0))).toBe(true);
    expect(tourDue(user(false, 2))).toBe(false);
  });

  it('opens where the person left it, within the 5 steps', () => {
    expect(tourStartStep(user(true, null))).toBe(0);
    expect(tourStartStep(user(true, 3))).toBe(3);
    expect(tourStartStep(user(true, 9))).toBe(4);
  });

  it('saves only forward progress', () => {
    expect(stepToSave(0, 1)).toBe(1);
    expect(stepToSave(null, 1)).toBe(1);
    expect(stepToSave(5, 2)).toBeNull();
    expect(stepToSave(2, 2)).toBeNull();
  });

  it('merges two copies of the person: completed wins, the larger step wins', () => {
    expect(mergeOnboarding(user(false, null), user(true, 0))).toEqual(user(true, 0));
    expect(mergeOnboarding(user(true, 5), user(true, 2))).toEqual(user(true, 5));
    expect(mergeOnboarding(user(false, null), undefined)).toEqual(user(false, null));
    expect(mergeOnboarding(null, null)).toBeNull();
  });
});
