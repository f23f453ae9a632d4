/**
 * originPolicy's answers, asked again and again (it remembers each pair it judged): the same
 * verdicts every time, and still right after more pairs than it keeps.
 */
import { describe, expect, it } from 'vitest';
import { ORIGIN_MEMO_MAX, originPolicy } from './origins';

describe('originPolicy', () => {
  it('answers a pair the same each time it is asked', () => {
    const policy = originPolicy({ publicUrl: 'https://pingme.example', allowedOrigins: [] });
    for (let i = 0; i < 3; i++) {
      expect(policy('https://pingme.example', 'https://pingme.example')).toBe(true);
      expect(policy('https://evil.example', 'https://pingme.example')).toBe(false);
      expect(policy('null', 'https://pingme.example')).toBe(false);
    }
  });

  it('judges a loopback request by its own origin, pair by pair', () => {
    const policy = originPolicy({ publicUrl: 'http://localhost:3000', allowedOrigins: [] });
    expect(policy('http://127.0.0.1:4000', 'http://127.0.0.1:4000')).toBe(true);
    expect(policy('http://127.0.0.1:4000', 'http://127.0.0.1:5000')).toBe(false);
    expect(policy('http://127.0.0.1:4000', 'http://127.0.0.1:4000')).toBe(true);
  });

  it('stays right after more pairs than it remembers', () => {
    const policy = originPolicy({
      publicUrl: 'https://pingme.example',
      allowedOrigins: ['https://admin.pingme.example'],
    });
    for (let i = 0; i < ORIGIN_MEMO_MAX * 2 + 1; i++) {
      expect(policy(`https://made-up-${i}.example`, 'https://pingme.example')).toBe(false);
    }
    expect(policy('https://admin.pingme.example', 'https://pingme.example')).toBe(true);
    expect(policy('https://made-up-0.example', 'https://pingme.example')).toBe(false);
  });
});
