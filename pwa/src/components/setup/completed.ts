/**
 * People who completed the setup in this tab. `onboardingCompleted` only ever goes from false to
 * true, so once the server said so here, a pull that was already under way (and answers the
 * record as it was a moment before) must not bring the setup back.
 */
const completedHere = new Set<string>();

export function markSetupCompleted(userId: string): void {
  completedHere.add(userId);
}

export function completedSetupHere(userId: string): boolean {
  return completedHere.has(userId);
}
