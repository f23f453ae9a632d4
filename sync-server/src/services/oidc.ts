/**
 * "Continue with Google" as standard OpenID Connect: the authorization-code flow with PKCE,
 * state and nonce, through openid-client. Any OpenID provider works (OIDC_ISSUER); Google is
 * `https://accounts.google.com`. The provider's metadata is discovered on first use and cached.
 */
import * as oidc from 'openid-client';
import type { Config } from '../config';

/** Kept in the session between the redirect to the provider and the callback. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  startedAt: number;
}

/** What the provider vouches for about the person. */
export interface ProviderIdentity {
  sub: string;
  email: string | undefined;
  emailVerified: boolean;
  givenName: string | undefined;
  familyName: string | undefined;
}

export interface OidcClient {
  readonly redirectUri: string;
  /** The provider URL to send the browser to, and what to remember for the callback. */
  begin(): Promise<{ url: string; pending: PendingSignIn }>;
  /** Checks the callback (state, PKCE, ID token signature, nonce) and returns the identity. */
  complete(callbackUrl: URL, pending: PendingSignIn): Promise<ProviderIdentity>;
}

/** How long a started sign-in may take before its callback is refused. */
export const PENDING_TTL_MS = 10 * 60_000;
const SCOPE = 'openid email profile';
const HTTP_TIMEOUT_SECONDS = 10;

export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    hostname === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(hostname)
  );
}

export function isPendingSignIn(value: unknown): value is PendingSignIn {
  const v = value as Partial<PendingSignIn> | null | undefined;
  return (
    typeof v?.state === 'string' &&
    typeof v.nonce === 'string' &&
    typeof v.codeVerifier === 'string' &&
    typeof v.startedAt === 'number'
  );
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() ? v.trim() : undefined;

export function createOidcClient(
  settings: NonNullable<Config['oidc']>,
  redirectUri: string,
): OidcClient {
  const issuer = new URL(settings.issuer);
  const insecure = issuer.protocol === 'http:';
  const clientAuth = settings.clientSecret
    ? oidc.ClientSecretPost(settings.clientSecret)
    : oidc.None();

  let discovered: Promise<oidc.Configuration> | undefined;
  /** Discovery runs once; a failure is not cached, so the next attempt tries again. */
  function configuration(): Promise<oidc.Configuration> {
    if (insecure && !isLoopbackHost(issuer.hostname)) {
      return Promise.reject(
        new Error(
          `OIDC_ISSUER ${settings.issuer} must use https (http is allowed for loopback only)`,
        ),
      );
    }
    discovered ??= oidc
      .discovery(issuer, settings.clientId, { redirect_uris: [redirectUri] }, clientAuth, {
        // Plain http only ever for a provider on this machine (tests, local development).
        execute: insecure ? [oidc.allowInsecureRequests] : [],
        timeout: HTTP_TIMEOUT_SECONDS,
      })
      .catch((err: unknown) => {
        discovered = undefined;
        throw err;
      });
    return discovered;
  }

  return {
    redirectUri,

    async begin() {
      const config = await configuration();
      const pending: PendingSignIn = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
        startedAt: Date.now(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        response_type: 'code',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, pending };
    },

    async complete(callbackUrl, pending) {
      const config = await configuration();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('The provider answered without an ID token');
      let claims: Record<string, unknown> = idClaims;
      // Google puts email and names in the ID token; a provider that keeps them to the
      // UserInfo endpoint is asked there (its answer must be about the same subject).
      if (str(idClaims.email) === undefined && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...idClaims };
      }
      return {
        sub: idClaims.sub,
        email: str(claims.email)?.toLowerCase(),
        emailVerified: claims.email_verified === true,
        givenName: str(claims.given_name),
        familyName: str(claims.family_name),
      };
    },
  };
}
