/** What the /ws client does after its socket closes (realtime.ts, step R5). */
import { describe, expect, it } from 'vitest';
import { afterClose } from './realtime';

describe('after the /ws socket closes', () => {
  it('reconnects at once when the server says it is restarting (1012) or going away (1001)', () => {
    expect(afterClose(1012)).toBe('reconnect-now');
    expect(afterClose(1001)).toBe('reconnect-now');
  });

  it('asks about the session after 4401 and backs off after anything else', () => {
    expect(afterClose(4401)).toBe('session-ended');
    for (const code of [1000, 1006, 1008, 1009, 1011]) expect(afterClose(code)).toBe('backoff');
  });
});
