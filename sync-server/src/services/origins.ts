/**
 * Which origins are the app's own (docs/security.md, "Cross-site request forgery"): PUBLIC_URL's
 * origin, ALLOWED_ORIGINS, and while PUBLIC_URL is loopback the request's own origin when its host
 * is `localhost` or an IP address. The CSRF check (middleware/csrf.ts) and the /ws handshake
 * (realtime/hub.ts) both ask this.
 */
import { isIP } from 'node:net';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config';

/** Whether `Origin` names the app: `origin` as sent, `own` the request's scheme://host. */
export type OriginPolicy = (origin: string, own: string) => boolean;

/** `localhost`, 127.0.0.0/8 and ::1: names that only ever mean this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
}

/** A host that no DNS answer can point elsewhere: `localhost` or an IP address. */
function isUnrebindable(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h.toLowerCase() === 'localhost' || isIP(h) !== 0;
}

function originOf(text: string): URL | undefined {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}

export function originPolicy(config: Pick<Config, 'publicUrl' | 'allowedOrigins'>): OriginPolicy {
  const publicUrl = new URL(config.publicUrl);
  const allowed = new Set([publicUrl.origin, ...config.allowedOrigins]);
  const localServer = isLoopbackHost(publicUrl.hostname);
  const judge: OriginPolicy = (origin, own) => {
    const o = originOf(origin.toLowerCase());
    // `null` (sandboxed frames, some redirects) and anything unparsable are foreign.
    if (!o) return false;
    if (allowed.has(o.origin)) return true;
    return localServer && isUnrebindable(o.hostname) && o.origin === originOf(own)?.origin;
  };
  // Every write asks, with the same few pairs over and over: each pair is parsed once (a URL
  // parse costs more than the rest of the check). Bounded: a flood of made-up origins only
  // pushes out the least recently asked pairs.
  const memo = new LRUCache<string, boolean>({ max: ORIGIN_MEMO_MAX });
  return (origin, own) => {
    const pair = `${origin}\n${own}`;
    let verdict = memo.get(pair);
    if (verdict === undefined) {
      verdict = judge(origin, own);
      memo.set(pair, verdict);
    }
    return verdict;
  };
}

/** Pairs of (Origin, own origin) remembered by a policy. */
export const ORIGIN_MEMO_MAX = 256;
