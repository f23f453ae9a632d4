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

function makeCookieKeys(secrets: readonly string[]): CookieKeys {
  if (secrets.length === 0) throw new Error('Keys must be provided.');
  const keys: KeyObject[] = secrets.map((s) => createSecretKey(Buffer.from(s, 'utf8')));
  const mac = (data: string, key: KeyObject) => createHmac('sha1', key).update(data).digest();
  const index = (data: string, digest: string) => {
    const given = Buffer.from(digest, 'base64url');
    // base64url decoding is lenient: only the canonical text of a digest is accepted.
    if (given.toString('base64url') !== digest) return -1;
    return keys.findIndex((key) => {
      const expected = mac(data, key);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  };
  return {
    sign: (data) => mac(data, keys[0]!).toString('base64url'),
    index,
    verify: (data, digest) => index(data, digest) > -1,
  };
}
