import { describe, expect, it } from 'vitest';
import { errorCodeOf, isRetryableStatus } from './sync';

describe('isRetryableStatus', () => {
  it('retries no answer, timeouts, rate limits and server errors', () => {
    for (const s of [0, 408, 429, 500, 502, 503]) expect(isRetryableStatus(s)).toBe(true);
  });
  it('treats other 4xx as final', () => {
    for (const s of [400, 403, 404, 409, 413, 422]) expect(isRetryableStatus(s)).toBe(false);
  });
  it("treats a receiver's daily limit as final, a throttle as transient", () => {
    expect(isRetryableStatus(429, { error: 'x', code: 'daily_limit_reached' })).toBe(false);
    expect(isRetryableStatus(429, { error: 'x', code: 'rate_limited' })).toBe(true);
  });
  it('reads the code of an error body, and nothing else', () => {
    expect(errorCodeOf({ code: 'forbidden' })).toBe('forbidden');
    expect(errorCodeOf({ code: 5 })).toBeUndefined();
    expect(errorCodeOf('text')).toBeUndefined();
    expect(errorCodeOf(null)).toBeUndefined();
  });
});
