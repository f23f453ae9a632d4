/**
 * Serves uploaded images and the built PWA, with the SPA fallback: any GET that is not
 * /api, /ws or a file answers index.html so client routes survive a reload.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import send from 'koa-send';
import type { Middleware } from 'koa';
import type { Config } from '../config';
import { SESSION_COOKIE } from '../db/sessions';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PingMe</title></head>
<body><main><h1>PingMe sync server is running</h1><p>The app is not built yet: run <code>npm run build</code>.</p></main></body></html>`;

/**
 * The page a navigation gets: `/` without a session cookie answers `landing.html` (the build's
 * index.html with the Landing page prerendered in #root, docs/pwa.md) so a visitor sees it before
 * any script has run; anyone else, and every other path, gets the plain shell. Only the cookie's
 * presence counts: a stale cookie gets the shell, and the app shows the Landing page as before.
 */
function shellFor(urlPath: string, sessionCookie: string | undefined, dist: string): string {
  if (urlPath === '/' && !sessionCookie && existsSync(path.join(dist, 'landing.html'))) {
    return 'landing.html';
  }
  return 'index.html';
}

export function staticFiles(config: Config): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/api/') || ctx.path === '/api' || ctx.path === '/ws') return next();
    if (ctx.path.startsWith('/uploads/')) {
      const name = path.basename(ctx.path);
      if (!/^[\w-]+\.(jpg|png|gif|webp)$/.test(name)) return next();
      try {
        await send(ctx, name, {
          root: config.uploadsDir,
          immutable: true,
          maxage: 365 * 24 * 3600_000,
        });
      } catch {
        return next();
      }
      return;
    }
    const index = path.join(config.pwaDist, 'index.html');
    if (!existsSync(index)) {
      ctx.type = 'html';
      ctx.body = NOT_BUILT;
      return;
    }
    // koa-send picks the .br/.gz copy by Accept-Encoding: caches must keep one answer per encoding.
    ctx.vary('Accept-Encoding');
    const rel = ctx.path === '/' ? 'index.html' : ctx.path.slice(1);
    const isAsset = /\.[a-z0-9]+$/i.test(rel) && rel !== 'index.html';
    try {
      if (isAsset) {
        const hashed = rel.startsWith('assets/');
        const served = await send(ctx, rel, {
          root: config.pwaDist,
          immutable: hashed,
          maxage: hashed ? 365 * 24 * 3600_000 : 0,
          setHeaders: (res, p) => {
            if (!hashed) res.setHeader('Cache-Control', 'no-cache');
            if (p.endsWith('sw.js')) res.setHeader('Service-Worker-Allowed', '/');
          },
        });
        if (served) return;
      }
    } catch {
      // fall through to the SPA fallback (or a 404 for missing assets)
    }
    if (isAsset) return next();
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, shellFor(ctx.path, ctx.cookies.get(SESSION_COOKIE), config.pwaDist), {
      root: config.pwaDist,
    });
    // The answer to `/` depends on the session cookie (landing.html or index.html).
    if (ctx.path === '/') ctx.vary('Cookie');
  };
}
