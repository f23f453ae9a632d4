import { describe, expect, it } from 'vitest';
import {
  canContinue,
  canSkip,
  cleanHandle,
  completeOnboardingBody,
  setupProgress,
  shouldCheckHandle,
} from './setup-rules';

describe('setup rules', () => {
  it('normalises the handle as typed', () => {
    expect(cleanHandle('Ada Lovelace!')).toBe('adalovelace');
    expect(cleanHandle('A'.repeat(40))).toHaveLength(30);
  });

  it('checks availability from 3 characters', () => {
    expect(shouldCheckHandle('ab')).toBe(false);
    expect(shouldCheckHandle('abc')).toBe(true);
  });

  it('step 1 goes on only with an available handle of 3 or more', () => {
    expect(canContinue(1, 'ada', 'available')).toBe(true);
    expect(canContinue(1, 'ada', 'taken')).toBe(false);
    expect(canContinue(1, 'ada', 'checking')).toBe(false);
    expect(canContinue(1, 'ada', 'error')).toBe(false);
    expect(canContinue(1, 'ad', 'available')).toBe(false);
  });

  it('steps 2 and 3 always go on; step 4 needs a handle of 3 or more', () => {
    expect(canContinue(2, '', 'short')).toBe(true);
    expect(canContinue(3, '', 'short')).toBe(true);
    expect(canContinue(4, 'ada', 'taken')).toBe(true);
    expect(canContinue(4, 'ad', 'available')).toBe(false);
  });

  it('offers Skip for now on steps 2 and 3 only', () => {
    expect([1, 2, 3, 4].map((s) => canSkip(s as 1 | 2 | 3 | 4))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('fills the progress bar a quarter per step', () => {
    expect(setupProgress(1)).toBe(25);
    expect(setupProgress(4)).toBe(100);
  });

  it('sends only the fields that were filled in, and never a photo (it is uploaded as a file)', () => {
    expect(completeOnboardingBody({ handle: 'ada', bio: '  ', location: '' })).toEqual({
      handle: 'ada',
    });
    expect(completeOnboardingBody({ handle: 'ada', bio: ' Maths ', location: 'London' })).toEqual({
      handle: 'ada',
      bio: 'Maths',
      location: 'London',
    });
  });
});
