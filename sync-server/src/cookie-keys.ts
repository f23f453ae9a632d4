/**
 * The session cookie's signature: keygrip's (HMAC-SHA1 of `name=value`, base64url without
 * padding, the first key signs, every key verifies), which the `cookies` package (Koa's, and the
 * /ws upgrade's) accepts in place of a Keygrip. It makes the same signatures as keygrip, so
 * cookies signed before stay valid, at a fraction of the CPU per request: keygrip builds a new
 * HMAC key from the secret text on every signature and compares through tsscmp, which draws
 * random bytes and computes two more HMACs per comparison; here each key is prepared once and
 * compared with `timingSafeEqual` (docs/performance.md, "The session cookie's signature").
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** keygrip's interface, as `cookies` calls it. */
export interface CookieKeys {
  sign(data: string): string;
  verify(data: string, digest: string): boolean;
  index(data: string, digest: string): number;
}

const made = new WeakMap<readonly string[], CookieKeys>();

/** The signer of these secrets (the config's list: made once, its keys prepared once). */
export function cookieKeys(secrets: readonly string[]): CookieKeys {
  let signer = made.get(secrets);
  if (!signer) {
    signer = makeCookieKeys(secrets);
    made.set(secrets, signer);
  }
  return signer;
}

/**
 * Signatures found good, kept (by their data and digest) so that the next request with the same
 * cookie skips the HMAC: 4 % of a ping send's CPU. Only good ones: forged cookies never enter, so
 * a flood of them cannot push a real one out.
 */
export const VERIFIED_KEPT = 20_000;

function makeCookieKeys(secrets: readonly string[]): CookieKeys {
  if (secrets.length === 0) throw new Error('Keys must be provided.');
  const keys: KeyObject[] = secrets.map((s) => createSecretKey(Buffer.from(s, 'utf8')));
  const mac = (data: string, key: KeyObject) => createHmac('sha1', key).update(data).digest();
  const verified = new LRUCache<string, number>({ max: VERIFIED_KEPT });
  const index = (data: string, digest: string) => {
    const memo = `${digest} ${data}`;
    const known = verified.get(memo);
    if (known !== undefined) return known;
    const given = Buffer.from(digest, 'base64url');
    // base64url decoding is lenient: only the canonical text of a digest is accepted.
    if (given.toString('base64url') !== digest) return -1;
    const found = keys.findIndex((key) => {
      const expected = mac(data, key);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (found >= 0) verified.set(memo, found);
    return found;
  };
  return {
    sign: (data) => mac(data, keys[0]!).toString('base64url'),
    index,
    verify: (data, digest) => index(data, digest) > -1,
  };
}
