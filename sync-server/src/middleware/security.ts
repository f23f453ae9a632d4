/**
 * Security headers on every response, API and app alike, errors included (docs/security.md,
 * "Headers"). The Content-Security-Policy allows only the app's own scripts (no inline script,
 * no eval), its own workers and manifest, images from itself plus data:/blob: (photo previews),
 * and connections to itself and its own /ws. `style-src` keeps 'unsafe-inline' because the
 * dialogs' scroll lock (react-remove-scroll, inside Radix Dialog) injects a <style> element;
 * style injection cannot run script.
 */
import { LRUCache } from 'lru-cache';
import type { Context, Middleware } from 'koa';
import type { Config } from '../config';

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/** `ws://host` / `wss://host` for an http(s) origin. */
function socketOrigin(origin: string): string {
  return origin.replace(/^http/, 'ws');
}

export function contentSecurityPolicy(config: Config, ctx: Pick<Context, 'protocol' | 'host'>) {
  const own = new Set([socketOrigin(new URL(config.publicUrl).origin)]);
  if (ctx.host) own.add(socketOrigin(`${ctx.protocol}://${ctx.host}`));
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ${[...own].join(' ')}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/** Policies by the request's scheme and host: the same few for every request. */
const POLICY_CACHE_SIZE = 100;

export function securityHeaders(config: Config): Middleware {
  // The Host header is the client's: the cache is bounded (the least recently used goes).
  const policies = new LRUCache<string, string>({ max: POLICY_CACHE_SIZE });
  const policyFor = (ctx: Pick<Context, 'protocol' | 'host'>) => {
    const key = `${ctx.protocol}://${ctx.host}`;
    let policy = policies.get(key);
    if (policy === undefined) {
      policy = contentSecurityPolicy(config, ctx);
      policies.set(key, policy);
    }
    return policy;
  };
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      // In `finally`, so an error answered further out (middleware/errors.ts) has them too.
      ctx.set('Content-Security-Policy', policyFor(ctx));
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
      ctx.set('X-Frame-Options', 'DENY');
      ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
      ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
      ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
      if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=15552000');
      if (ctx.path.startsWith('/api/'))
        ctx.set('Cache-Control', ctx.response.get('Cache-Control') || 'no-store');
    }
  };
}
