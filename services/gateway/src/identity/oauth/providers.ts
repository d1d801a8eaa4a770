import type { Clock } from '@rootline/host';
import type { GatewayConfig } from '../../config.js';
import { type Jwk, verifyIdToken } from '../domain/id-token.js';

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
  code: string;
  redirectUri: string;
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

const TIMEOUT_MS = 10_000;

async function fetchJson(url: string, init: RequestInit = {}): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  } catch (err) {
    throw new ProviderError(`${new URL(url).host} did not answer: ${(err as Error).message}`);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProviderError(`${new URL(url).host} answered ${res.status} without JSON`);
  }
  if (!res.ok) {
    const error = (body as { error?: unknown })?.error;
    throw new ProviderError(
      `${new URL(url).host} answered ${res.status}${typeof error === 'string' ? ` (${error})` : ''}`,
    );
  }
  return body;
}

/** Posts the authorisation code to a token endpoint (client secret in the body) and returns the JSON answer. */
async function redeemCode(
  tokenUrl: string,
  client: { id: string; secret: string },
  req: TokenExchange,
): Promise<Record<string, unknown>> {
  const body = await fetchJson(tokenUrl, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: req.code,
      redirect_uri: req.redirectUri,
      client_id: client.id,
      client_secret: client.secret,
      code_verifier: req.codeVerifier,
    }),
  });
  const answer = body as Record<string, unknown>;
  // GitHub reports a bad code with 200 and an `error` field.
  if (typeof answer.error === 'string')
    throw new ProviderError(`the token endpoint refused the code (${answer.error})`);
  return answer;
}

/** An authorisation-code request with PKCE (S256) and state, plus the provider's own parameters. */
function authorizeUrl(endpoint: string, clientId: string, req: AuthorizationRequest, extra: Record<string, string>) {
  const url = new URL(endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: req.redirectUri,
    state: req.state,
    code_challenge: req.codeChallenge,
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return url.toString();
}

interface GithubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * GitHub-style OAuth 2: authorise, redeem the code (PKCE), then read `/user` and `/user/emails` with the
 * access token. The email used is the primary address GitHub has verified.
 */
export function githubProvider(config: {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
}): OAuthProvider {
  const api = config.apiUrl.replace(/\/$/, '');
  return {
    id: 'github',
    name: 'GitHub',
    type: 'oauth',
    async authorizationUrl(req) {
      return authorizeUrl(config.authorizeUrl, config.clientId, req, { scope: 'read:user user:email' });
    },
    async exchange(req) {
      const token = await redeemCode(config.tokenUrl, { id: config.clientId, secret: config.clientSecret }, req);
      if (typeof token.access_token !== 'string') throw new ProviderError('the token endpoint sent no access token');
      const headers = {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token.access_token}`,
        'user-agent': 'rootline',
      };
      const user = (await fetchJson(`${api}/user`, { headers })) as { id?: unknown; name?: unknown; login?: unknown };
      if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new ProviderError('/user has no id');
      const emails = (await fetchJson(`${api}/user/emails`, { headers })) as GithubEmail[];
      const primary = Array.isArray(emails) ? emails.find((e) => e.primary && e.verified) : undefined;
      return {
        accountId: String(user.id),
        email: primary?.email ?? null,
        emailVerified: primary !== undefined,
        name: typeof user.name === 'string' ? user.name : typeof user.login === 'string' ? user.login : null,
      };
    },
  };
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

/**
 * Google-style OpenID Connect: discovery from the issuer, authorise with PKCE and a nonce, redeem the code,
 * and verify the ID token (signature against the provider's JWKS, issuer, audience, expiry, nonce). The
 * email and whether it is verified come from the verified ID token.
 */
export function oidcProvider(config: {
  clientId: string;
  clientSecret: string;
  issuer: string;
  /** ID tokens are checked for expiry against it. */
  clock: Clock;
}): OAuthProvider {
  let discovery: Promise<Discovery> | undefined;
  let keys: Jwk[] = [];

  const discover = () => {
    discovery ??= (async () => {
      const doc = (await fetchJson(
        `${config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
      )) as Discovery;
      if (doc.issuer !== config.issuer)
        throw new ProviderError(`discovery names issuer ${doc.issuer}, not ${config.issuer}`);
      return doc;
    })().catch((err: unknown) => {
      discovery = undefined;
      throw err;
    });
    return discovery;
  };

  const loadKeys = async () => {
    const doc = await discover();
    const jwks = (await fetchJson(doc.jwks_uri)) as { keys?: Jwk[] };
    keys = Array.isArray(jwks.keys) ? jwks.keys : [];
  };

  return {
    id: 'google',
    name: 'Google',
    type: 'oidc',
    async authorizationUrl(req) {
      const doc = await discover();
      return authorizeUrl(doc.authorization_endpoint, config.clientId, req, {
        scope: 'openid email profile',
        nonce: req.nonce,
      });
    },
    async exchange(req) {
      const doc = await discover();
      const token = await redeemCode(doc.token_endpoint, { id: config.clientId, secret: config.clientSecret }, req);
      if (typeof token.id_token !== 'string') throw new ProviderError('the token endpoint sent no ID token');
      const expect = {
        issuer: doc.issuer,
        audience: config.clientId,
        nonce: req.nonce,
        now: config.clock.now().getTime() / 1000,
      };
      if (keys.length === 0) await loadKeys();
      let claims: ReturnType<typeof verifyIdToken>;
      try {
        claims = verifyIdToken(token.id_token, keys, expect);
      } catch {
        // The provider may have rotated its keys: fetch them once more and try again.
        await loadKeys();
        try {
          claims = verifyIdToken(token.id_token, keys, expect);
        } catch (err) {
          throw new ProviderError((err as Error).message);
        }
      }
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
