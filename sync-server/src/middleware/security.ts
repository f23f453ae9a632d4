import type { Middleware } from 'koa';

/** Baseline security headers on every response (issue 7 tightens the CSP further). */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    ctx.set('X-Frame-Options', 'DENY');
    if (ctx.path.startsWith('/api/'))
      ctx.set('Cache-Control', ctx.response.get('Cache-Control') || 'no-store');
  };
}
