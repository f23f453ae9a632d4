/**
 * Cross-site request forgery (docs/security.md, "CSRF"). Every mutating request (POST, PUT,
 * PATCH, DELETE; the API is the only thing that takes them, and checking every path means no
 * spelling of a route, such as `/API/…`, which the router also matches, slips past) must come
 * from one of the app's own origins (`originPolicy`):
 *
 * 1. With an `Origin` header: it must be PUBLIC_URL's origin, one of ALLOWED_ORIGINS, or, only
 *    while PUBLIC_URL is a loopback address (the `npm start` default), the request's own origin
 *    when its host is `localhost` or an IP address (a LAN IP). The Host header alone is never
 *    trusted: a DNS name can be rebound to this server (Host: evil.example, Origin:
 *    http://evil.example), an IP address or `localhost` cannot.
 * 2. Without `Origin`, `Sec-Fetch-Site` (sent by every current browser) must be `same-origin`
 *    or `none` (typed by the person, a bookmark).
 * 3. With neither header the request is not from a browser (curl, tests, scripts, the batch
 *    route's inner dispatch) and is allowed: such a client holds the cookie itself, so there is
 *    nobody to forge a request on behalf of. Browsers always send `Origin` on a cross-site POST
 *    (and on every fetch/XHR that is not GET/HEAD), and the session cookie is SameSite=Lax, so a
 *    cross-site form post would not carry it anyway: this check is the second lock.
 *
 * A refused request answers 403 before its body is read or its session is loaded, so it
 * changes nothing. `/ws` applies the same policy to its handshake (realtime/hub.ts).
 */
import type { Context, Middleware } from 'koa';
import type { Config } from '../config';
import { forbidden } from '../errors';
import { originPolicy, type OriginPolicy } from '../services/origins';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ALLOWED_FETCH_SITES = new Set(['same-origin', 'none']);
export const CSRF_MESSAGE = 'This request did not come from the PingMe app';

export function sameOriginOnly(config: Config): Middleware {
  const policy = originPolicy(config);
  return async (ctx, next) => {
    if (MUTATING.has(ctx.method) && !fromOwnOrigin(ctx, policy)) {
      throw forbidden(CSRF_MESSAGE);
    }
    await next();
  };
}

export function fromOwnOrigin(ctx: Context, policy: OriginPolicy): boolean {
  const origin = ctx.get('origin');
  if (origin) return policy(origin, `${ctx.protocol}://${ctx.host}`);
  const site = ctx.get('sec-fetch-site');
  if (site) return ALLOWED_FETCH_SITES.has(site.toLowerCase());
  return true;
}
