/** What a send says (lib/sent-toast.ts): the success toast online, the truth offline. */
import { describe, expect, it } from 'vitest';
import { SAVED_OFFLINE_TITLE, sentOrSaved } from './sent-toast';

const SENT = {
  title: 'Pings sent! 🎉',
  description: 'Sent "x" to your friend',
  variant: 'success' as const,
};

describe('sentOrSaved', () => {
  it('keeps the spec’s success toast while the server can be reached', () => {
    expect(sentOrSaved(SENT, true)).toBe(SENT);
  });

  it('says the ping is saved and will be sent while offline', () => {
    const shown = sentOrSaved(SENT, false);
    expect(shown.title).toBe(SAVED_OFFLINE_TITLE);
    expect(shown.title).toBe("Saved, will send when you're back online");
    expect(shown.variant).toBe('default');
  });
});
