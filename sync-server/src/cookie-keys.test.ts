/**
 * The session cookie's signer makes keygrip's signatures (a cookie signed before it stays valid,
 * and one it signs is valid to keygrip), and refuses every other signature.
 */
import Keygrip from 'keygrip';
import { describe, expect, it } from 'vitest';
import { cookieKeys } from './cookie-keys';

const OLD = 'an-older-session-secret-0123456789abcdef';
const NEW = 'the-current-session-secret-0123456789abcdef';
const data = 'pingme.sid=Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4';

describe('cookieKeys', () => {
  it('signs as keygrip does, and each accepts the other’s signatures', () => {
    const grip = new Keygrip([NEW, OLD]);
    const keys = cookieKeys([NEW, OLD]);
    for (const d of [data, '', 'pingme.sid=é ☃ 🙂', 'x'.repeat(5000)]) {
      expect(keys.sign(d)).toBe(grip.sign(d));
      expect(keys.index(d, grip.sign(d))).toBe(0);
      expect(grip.index(d, keys.sign(d))).toBe(0);
    }
  });

  it('verifies with every key, in order (a rotated secret still signs in)', () => {
    const signedBefore = new Keygrip([OLD]).sign(data);
    const keys = cookieKeys([NEW, OLD]);
    expect(keys.index(data, signedBefore)).toBe(1);
    expect(keys.verify(data, signedBefore)).toBe(true);
    expect(cookieKeys([NEW]).verify(data, signedBefore)).toBe(false);
  });

  it('refuses a signature of other data, a changed one, and a non-canonical spelling', () => {
    const keys = cookieKeys([NEW]);
    const good = keys.sign(data);
    expect(keys.verify(`${data}x`, good)).toBe(false);
    const last = good.at(-1)!;
    expect(keys.verify(data, good.slice(0, -1) + (last === 'A' ? 'B' : 'A'))).toBe(false);
    expect(keys.verify(data, good.slice(0, -1))).toBe(false);
    expect(keys.verify(data, `${good}=`)).toBe(false);
    expect(keys.verify(data, `${good}AA`)).toBe(false);
    expect(keys.verify(data, '')).toBe(false);
  });

  it('refuses a forged signature of a cookie it has verified before, and a good one of another', () => {
    const keys = cookieKeys([NEW, OLD]);
    const good = keys.sign(data);
    const byOld = new Keygrip([OLD]).sign(data);
    for (let i = 0; i < 3; i++) {
      expect(keys.index(data, good)).toBe(0);
      expect(keys.index(data, byOld)).toBe(1);
      expect(keys.verify(data, good.slice(0, -1) + (good.at(-1) === 'A' ? 'B' : 'A'))).toBe(false);
      expect(keys.verify(`${data}x`, good)).toBe(false);
      expect(keys.verify(data.slice(0, -1), good)).toBe(false);
    }
  });

  it('needs a key', () => {
    expect(() => cookieKeys([])).toThrow('Keys must be provided.');
  });
});
