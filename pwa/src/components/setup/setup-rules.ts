/** The rules of the onboarding setup (spec sections 2, 4 and 5), pure so they can be tested. */
import { LIMITS, normalizeUsername } from '@pingme/shared';

export type SetupStep = 1 | 2 | 3 | 4;
export const SETUP_STEPS = LIMITS.setupSteps;

/** Where the username check stands for the handle on screen. */
export type HandleStatus = 'short' | 'checking' | 'available' | 'taken' | 'error';

/** What the field holds after typing: lower-cased, a-z 0-9 _ only, at most 30 characters. */
export const cleanHandle = normalizeUsername;

/** The availability check runs (after the 500 ms pause) once the handle has 3 or more characters. */
export function shouldCheckHandle(handle: string): boolean {
  return handle.length >= LIMITS.usernameMin;
}

/**
 * Whether the forward button works: step 1 only with an available handle of at least 3
 * characters, steps 2-3 always, step 4 ('Complete Setup') with a handle of at least 3.
 */
export function canContinue(step: SetupStep, handle: string, status: HandleStatus): boolean {
  const longEnough = handle.length >= LIMITS.usernameMin;
  switch (step) {
    case 1:
      return longEnough && status === 'available';
    case 2:
    case 3:
      return true;
    case 4:
      return longEnough;
  }
}

/** 'Skip for now' is offered on steps 2 and 3 and jumps to step 4. */
export function canSkip(step: SetupStep): boolean {
  return step === 2 || step === 3;
}

/** The progress bar's value, in percent. */
export function setupProgress(step: SetupStep): number {
  return Math.round((step / SETUP_STEPS) * 100);
}

/**
 * The body of POST /api/user/complete-onboarding: empty optional fields are left out. The photo
 * is not part of it: it is uploaded as a file first (PUT /api/profile/photo).
 */
export function completeOnboardingBody(fields: { handle: string; bio: string; location: string }): {
  handle: string;
  bio?: string;
  location?: string;
} {
  const bio = fields.bio.trim();
  const location = fields.location.trim();
  return {
    handle: fields.handle,
    ...(bio ? { bio } : {}),
    ...(location ? { location } : {}),
  };
}
