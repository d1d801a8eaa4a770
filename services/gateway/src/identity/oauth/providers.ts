import { type Clock, offsetFromSystemClock } from '@rootline/host';
import * as client from 'openid-client';
import type { GatewayConfig } from '../../config.js';

/** What Rootline learns about a person from a provider. */
export interface OAuthProfile {
  /** The provider's stable account id. */
  accountId: string;
  email: string | null;
  /** True only when the provider vouches that the person controls the address. */
  emailVerified: boolean;
  name: string | null;
}

/** One authorisation-code round, from our side. */
export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
}

export interface TokenExchange {
  /** The callback's query as the provider sent it (code, state, and `iss` where the provider adds it). */
  callback: Record<string, string>;
  redirectUri: string;
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** A third-party identity provider. */
export interface OAuthProvider {
  id: 'github' | 'google';
  name: string;
  type: 'oauth' | 'oidc';
  /** Where to send the browser to sign in (PKCE S256, state, and for OIDC a nonce). */
  authorizationUrl(req: AuthorizationRequest): Promise<string>;
  /** Exchanges the code (with the PKCE verifier) and reads the person's profile. */
  exchange(req: TokenExchange): Promise<OAuthProfile>;
}

/** A provider answered with something we cannot use. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

const TIMEOUT_SECONDS = 10;

/**
 * openid-client refuses plain-http endpoints. They are allowed only for an issuer on this machine (a local
 * or test provider at http://127.0.0.1, http://localhost or http://[::1]); every other issuer must use https.
 */
export function isLocalHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}

/** Names of the ID-token claims openid-client reports when one does not match. */
const CLAIMS: Record<string, string> = {
  aud: 'audience',
  iss: 'issuer',
  azp: 'authorised party',
  nonce: 'nonce',
  exp: 'expiry',
};

/** Runs a call into openid-client, turning its errors (bad answers, failed checks) into ProviderErrors. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ProviderError) throw err;
    // openid-client wraps the failed check (oauth4webapi's error, whose cause names the claim).
    const messages: string[] = [];
    let claim: string | undefined;
    for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
      if (e instanceof Error && messages.at(-1) !== e.message) messages.push(e.message);
      const named = (e as { claim?: unknown }).claim;
      if (typeof named === 'string') claim ??= named;
    }
    const code = (err as { error?: unknown }).error;
    const detail = typeof code === 'string' ? code : claim ? `the ${CLAIMS[claim] ?? claim} claim` : undefined;
    const message = messages.join(': ');
    throw new ProviderError(detail ? `${message} (${detail})` : message);
  }
}

/**
 * A client configuration for one exchange. openid-client fixes the clock offset when a configuration is
 * made, so each exchange gets its own, with the offset between the service clock and the system clock:
 * ID-token times are then judged by the service clock (30 s tolerance).
 */
function configuration(
  server: client.ServerMetadata,
  clientId: string,
  clientSecret: string,
  clock: Clock,
): client.Configuration {
  const skew = offsetFromSystemClock(clock);
  const config = new client.Configuration(
    server,
    clientId,
    { [client.clockSkew]: skew },
    client.ClientSecretPost(clientSecret),
  );
  config.timeout = TIMEOUT_SECONDS;
  if (isLocalHttp(server.issuer)) client.allowInsecureRequests(config);
  return config;
}

/** The callback address as the provider redirected to it, for openid-client to read the response from. */
function callbackUrl(req: TokenExchange): URL {
  const url = new URL(req.redirectUri);
  for (const [key, value] of Object.entries(req.callback)) url.searchParams.set(key, value);
  return url;
}

function authorizeUrl(config: client.Configuration, req: AuthorizationRequest, extra: Record<string, string>) {
  return client
    .buildAuthorizationUrl(config, {
      redirect_uri: req.redirectUri,
      state: req.state,
      code_challenge: req.codeChallenge,
      code_challenge_method: 'S256',
      ...extra,
    })
    .toString();
}

interface GithubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * GitHub-style OAuth 2 (no OpenID Connect): openid-client builds the authorisation URL and redeems the code
 * (PKCE, state, client secret in the body); the person is then read from the provider's own API (`/user`
 * and `/user/emails`) with the access token. The email used is the primary address GitHub has verified.
 */
export function githubProvider(config: {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
  clock: Clock;
}): OAuthProvider {
  const api = config.apiUrl.replace(/\/$/, '');
  // GitHub publishes no discovery document: its endpoints are configured, the issuer is their origin.
  const server: client.ServerMetadata = {
    issuer: new URL(config.authorizeUrl).origin,
    authorization_endpoint: config.authorizeUrl,
    token_endpoint: config.tokenUrl,
  };
  const make = () => configuration(server, config.clientId, config.clientSecret, config.clock);
  return {
    id: 'github',
    name: 'GitHub',
    type: 'oauth',
    async authorizationUrl(req) {
      return authorizeUrl(make(), req, { scope: 'read:user user:email' });
    },
    async exchange(req) {
      return guarded(async () => {
        const rp = make();
        if (isLocalHttp(api)) client.allowInsecureRequests(rp);
        const tokens = await client.authorizationCodeGrant(rp, callbackUrl(req), {
          pkceCodeVerifier: req.codeVerifier,
          expectedState: req.state,
        });
        const read = async (path: string) => {
          const headers = new Headers({ accept: 'application/vnd.github+json', 'user-agent': 'rootline' });
          const res = await client.fetchProtectedResource(
            rp,
            tokens.access_token,
            new URL(`${api}${path}`),
            'GET',
            null,
            headers,
          );
          if (!res.ok) throw new ProviderError(`${path} answered ${res.status}`);
          return (await res.json()) as unknown;
        };
        const user = (await read('/user')) as { id?: unknown; name?: unknown; login?: unknown };
        if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new ProviderError('/user has no id');
        const emails = (await read('/user/emails')) as GithubEmail[];
        const primary = Array.isArray(emails) ? emails.find((e) => e.primary && e.verified) : undefined;
        return {
          accountId: String(user.id),
          email: primary?.email ?? null,
          emailVerified: primary !== undefined,
          name: typeof user.name === 'string' ? user.name : typeof user.login === 'string' ? user.login : null,
        };
      });
    },
  };
}

/**
 * Google-style OpenID Connect through openid-client: discovery from the issuer, authorisation with PKCE,
 * state and a nonce, the code grant, and the ID token checked in full (issuer, audience, expiry, nonce,
 * and its signature against the provider's JWKS, which is cached and fetched again when a token names a
 * key it does not hold). The email and whether it is verified come from the verified ID token, or from the
userinfo endpoint when the ID token carries no email.
 */
export function oidcProvider(config: {
  clientId: string;
  clientSecret: string;
  issuer: string;
  /** ID tokens are judged by its time. */
  clock: Clock;
}): OAuthProvider {
  let discovered: Promise<client.ServerMetadata> | undefined;
  /** The provider's keys as openid-client exports them, with the download time on the service clock. */
  let keys: client.ExportedJWKSCache | undefined;

  const discover = () => {
    discovered ??= guarded(async () => {
      const found = await client.discovery(new URL(config.issuer), config.clientId, undefined, undefined, {
        execute: isLocalHttp(config.issuer) ? [client.allowInsecureRequests] : [],
        timeout: TIMEOUT_SECONDS,
      });
      return found.serverMetadata();
    }).catch((err: unknown) => {
      discovered = undefined;
      throw err;
    });
    return discovered;
  };
  const make = async () => configuration(await discover(), config.clientId, config.clientSecret, config.clock);

  return {
    id: 'google',
    name: 'Google',
    type: 'oidc',
    async authorizationUrl(req) {
      return authorizeUrl(await make(), req, { scope: 'openid email profile', nonce: req.nonce });
    },
    async exchange(req) {
      const rp = await make();
      // openid-client ages its key cache by the system clock: carry it over on the service clock instead.
      const offset = offsetFromSystemClock(config.clock);
      if (keys) client.setJwksCache(rp, { jwks: keys.jwks, uat: keys.uat - offset });
      // Check the ID token's signature too, not only the TLS channel it came over.
      client.enableNonRepudiationChecks(rp);
      const claims = await guarded(async () => {
        try {
          const tokens = await client.authorizationCodeGrant(rp, callbackUrl(req), {
            pkceCodeVerifier: req.codeVerifier,
            expectedState: req.state,
            expectedNonce: req.nonce,
            idTokenExpected: true,
          });
          const idToken = tokens.claims()!;
          // A provider may leave the address out of the ID token: then ask its userinfo endpoint, whose
          // answer must be about the same subject.
          if (typeof idToken.email === 'string' || !rp.serverMetadata().userinfo_endpoint) return idToken;
          return { ...(await client.fetchUserInfo(rp, tokens.access_token, idToken.sub)), sub: idToken.sub };
        } finally {
          const cache = client.getJwksCache(rp);
          keys = cache ? { jwks: cache.jwks, uat: cache.uat + offset } : undefined;
        }
      });
      return {
        accountId: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : null,
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        name: typeof claims.name === 'string' ? claims.name : null,
      };
    },
  };
}

/** The providers the settings enable: each needs its client id and secret. */
export function configuredProviders(config: GatewayConfig, clock: Clock): OAuthProvider[] {
  const providers: OAuthProvider[] = [];
  if (config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET) {
    providers.push(
      githubProvider({
        clientId: config.GITHUB_CLIENT_ID,
        clientSecret: config.GITHUB_CLIENT_SECRET,
        authorizeUrl: config.GITHUB_AUTHORIZE_URL,
        tokenUrl: config.GITHUB_TOKEN_URL,
        apiUrl: config.GITHUB_API_URL,
        clock,
      }),
    );
  }
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) {
    providers.push(
      oidcProvider({
        clientId: config.GOOGLE_CLIENT_ID,
        clientSecret: config.GOOGLE_CLIENT_SECRET,
        issuer: config.GOOGLE_ISSUER,
        clock,
      }),
    );
  }
  return providers;
}
