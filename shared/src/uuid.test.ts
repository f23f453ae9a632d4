import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { uuidv7, uuidv7Time } from './uuid';

describe('uuidv7', () => {
  afterEach(() => vi.restoreAllMocks());

  it('has the RFC 9562 layout: version 7, variant 10, and passes the shared id schema', () => {
    for (let i = 0; i < 50; i++) {
      const id = uuidv7();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(z.uuid().safeParse(id).success).toBe(true);
    }
  });

  it('carries the given millisecond timestamp in its first 48 bits', () => {
    const at = Date.UTC(2031, 4, 6, 7, 8, 9, 123);
    expect(uuidv7Time(uuidv7(at))).toBe(at);
    expect(uuidv7Time(uuidv7(0))).toBe(0);
    const before = Date.now();
    const t = uuidv7Time(uuidv7());
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('sorts strictly in creation order, even many within one millisecond', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7());
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
  });

  it('keeps order when the clock steps back', () => {
    const now = Date.now() + 60_000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    const a = uuidv7();
    clock.mockReturnValue(now - 5_000);
    const b = uuidv7();
    expect(b > a).toBe(true);
    expect(uuidv7Time(b)).toBe(now);
  });

  it('sorts ids of a later millisecond after ids of an earlier one', () => {
    const at = Date.now();
    const a = uuidv7(at);
    const b = uuidv7(at + 1);
    expect(a < b).toBe(true);
  });
});
