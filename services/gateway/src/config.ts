import { ConfigError, Gs1CompanyPrefixSetting, withBase } from '@rootline/host';
import { StorageConfigProperties } from '@rootline/storage';
import { type Static, Type } from '@sinclair/typebox';

const Url = (description: string) => Type.Optional(Type.String({ pattern: '^https?://', description }));

/** Settings of the HTTP gateway: the shared base settings plus its own. */
export const GatewayConfig = withBase({
  // Where uploads are streamed: the same settings as the media service's.
  ...StorageConfigProperties,
  PORT: Type.Integer({ description: 'HTTP port of the gateway', default: 3000, minimum: 0, maximum: 65_535 }),
  READ_YOUR_WRITES_MS: Type.Integer({
    description:
      "After a caller's write, how long its reads go to the primary database rather than a read replica (DATABASE_READ_URL); 0 turns it off",
    default: 5000,
    minimum: 0,
    maximum: 600_000,
  }),
  HOST: Type.String({ description: 'Interface the gateway listens on', default: '0.0.0.0', minLength: 1 }),
  /** HS256 key of session tokens; 32 characters at least so it cannot be guessed by brute force. */
  JWT_SECRET: Type.String({ minLength: 32 }),
  BODY_LIMIT_BYTES: Type.Integer({
    description: 'Largest accepted JSON body (413 PAYLOAD_TOO_LARGE above it)',
    default: 1_048_576,
    minimum: 1,
  }),
  IDEMPOTENCY_KEY_TTL_SECONDS: Type.Integer({
    default: 86_400,
    minimum: 1,
    description: 'How long the answer to an Idempotency-Key is kept (at least a day in production)',
  }),
  IDEMPOTENCY_LOCK_SECONDS: Type.Integer({
    default: 5,
    minimum: 1,
    description:
      'Lease on an in-flight Idempotency-Key, renewed every third of it while its request runs: a retry takes over ' +
      'at most this long after the gateway holding it died',
  }),
  SSE_HEARTBEAT_SECONDS: Type.Integer({
    default: 15,
    minimum: 1,
    maximum: 300,
    description: 'Seconds between heartbeat comments on an idle event stream',
  }),
  SSE_POLL_MS: Type.Integer({
    default: 2000,
    minimum: 50,
    maximum: 60_000,
    description: 'How often the event stream reads the history besides the signals of new events',
  }),
  SSE_CLIENT_QUEUE: Type.Integer({
    default: 1000,
    minimum: 1,
    maximum: 100_000,
    description: 'Events kept for a client whose socket is full before it is disconnected (it resumes later)',
  }),
  WS_HEARTBEAT_SECONDS: Type.Integer({
    default: 30,
    minimum: 1,
    maximum: 300,
    description: 'Seconds between WebSocket pings; a socket that missed the previous pong is closed',
  }),
  WS_MAX_BUFFERED_BYTES: Type.Integer({
    default: 1_048_576,
    minimum: 1024,
    maximum: 268_435_456,
    description: 'Unsent bytes a WebSocket may hold before it is dropped as too slow (it reconnects)',
  }),
  WS_MAX_ROOMS: Type.Integer({ default: 100, minimum: 1, maximum: 10_000, description: 'Rooms one socket may join' }),
  WS_TICKET_SECONDS: Type.Integer({
    default: 60,
    minimum: 5,
    maximum: 3600,
    description: 'How long a ticket from POST /api/realtime/connect may open a socket',
  }),
  /** host:port that GET /api/privacy/status asks the SOCKS proxy to connect to (a handshake to completion). */
  SOCKS_CHECK_TARGET: Type.String({ default: 'check.torproject.org:443', pattern: '^[^\\s:]+:[0-9]{1,5}$' }),
  PRIVACY_CHECK_TIMEOUT_MS: Type.Integer({
    description: 'How long GET /api/privacy/status waits for the SOCKS proxy handshake',
    default: 5000,
    minimum: 100,
    maximum: 60_000,
  }),
  /** The hidden-service (.onion) hostname this API is also reachable at, reported by GET /api/privacy/status. */
  HIDDEN_SERVICE_HOSTNAME: Type.Optional(Type.String({ pattern: '^[a-z2-7]{16,56}\\.onion$' })),
  RATE_LIMIT_PER_MINUTE: Type.Integer({
    description: 'Requests per minute per client IP address of API clients (requests with an Authorization header)',
    default: 100,
    minimum: 1,
  }),
  /** Requests per hour per user of API clients: an API token or a session token sent as a bearer token (the spec's 1000). */
  RATE_LIMIT_PER_HOUR_PER_USER: Type.Integer({ default: 1000, minimum: 1 }),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: Type.Integer({
    description:
      'Requests per minute per client IP address of requests without a credential (visitors not signed in): ' +
      'a page every two seconds at up to ten reads a page',
    default: 300,
    minimum: 1,
  }),
  RATE_LIMIT_SESSION_PER_MINUTE: Type.Integer({
    description:
      "Requests per minute per browser session (the web app's session cookie); such requests are not counted per " +
      'address nor per user per hour',
    default: 600,
    minimum: 1,
  }),
  /** Sign-in, register and forgot-password attempts per minute per client IP, each. */
  AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 10, minimum: 1 }),
  /** Redis for rate-limit counters shared by gateway replicas; without it they live in memory. */
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  REDIS_KEY_PREFIX: Type.String({
    description: "Prefix of the gateway's Redis keys",
    default: 'rootline:',
    minLength: 1,
  }),
  /**
   * Public address of the API: links (QR codes, certificates, emails, signed URLs) start with it, it is the server
   * of the OpenAPI document, and third-party sign-in needs it. Unset: each request's own origin.
   */
  PUBLIC_URL: Url('Public address of the API; unset: the origin of each request'),
  /** Plants' GS1 Digital Link URIs (`/8004/<GIAI>`) resolve when their GIAI starts with it (ADR 275). */
  GS1_COMPANY_PREFIX: Gs1CompanyPrefixSetting,
  /** The web app's built files (index.html and assets/); unset: apps/web/dist of this repository. */
  WEB_APP_DIR: Type.Optional(
    Type.String({ minLength: 1, description: "Folder of the web app's build; unset: apps/web/dist of the repository" }),
  ),
  /**
   * Street tiles of the web app's maps, as a Leaflet URL template (`https://tile.example/{z}/{x}/{y}.png`); unset,
   * the maps show the world outlines and town names bundled with the app, which need no internet.
   */
  MAP_TILE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'Tile URL template of the web maps (they replace the bundled outlines and town names); unset: the bundled ones',
    }),
  ),
  MAP_TILE_ATTRIBUTION: Type.String({
    default: '',
    maxLength: 500,
    description: 'Attribution shown under the street tiles (the tile provider usually requires one)',
  }),
  /** Trust X-Forwarded-For/-Proto/-Host from any peer (client IP for rate limits, TLS for Secure cookies, links). */
  TRUST_PROXY: Type.Boolean({ default: false }),
  /**
   * The reverse proxies whose X-Forwarded-For/-Proto/-Host are believed, as a comma-separated list of addresses and
   * CIDR ranges (e.g. `127.0.0.1,10.0.0.0/8`; also `loopback`, `linklocal`, `uniquelocal`). Instead of TRUST_PROXY.
   */
  TRUSTED_PROXIES: Type.Optional(
    Type.String({
      pattern: '^[\\w.:/-]+(\\s*,\\s*[\\w.:/-]+)*$',
      description: 'Addresses/CIDRs of reverse proxies whose X-Forwarded-* headers are trusted, comma-separated',
    }),
  ),
  /** How new password hashes are made; hashes of either scheme always verify and are upgraded on sign-in. */
  PASSWORD_HASH: Type.Union([Type.Literal('bcrypt'), Type.Literal('argon2id')], { default: 'bcrypt' }),
  /** bcrypt cost: the spec's 12. Lower only in tests (each step halves the time). */
  SESSION_CACHE_MS: Type.Integer({
    default: 10_000,
    minimum: 0,
    maximum: 300_000,
    description: 'How long a replica remembers a live session (0: check the database on every request)',
  }),
  ORG_INVITATION_TTL_DAYS: Type.Integer({
    default: 7,
    minimum: 1,
    maximum: 90,
    description: 'How many days the link of an emailed invitation to an organization works',
  }),
  ACCOUNT_NAMES_CACHE_MS: Type.Integer({
    default: 10_000,
    minimum: 0,
    maximum: 300_000,
    description:
      'How long a replica remembers an account’s display name for the names reads show beside recorded ones (0: ' +
      'read them on every answer)',
  }),
  BCRYPT_COST: Type.Integer({
    description: "bcrypt cost of new hashes (the spec's 12; each step doubles the time, tests use 4)",
    default: 12,
    minimum: 4,
    maximum: 15,
  }),
  ARGON2_MEMORY_KIB: Type.Integer({
    description: 'argon2id memory of new hashes, when PASSWORD_HASH=argon2id',
    default: 19_456,
    minimum: 1024,
    maximum: 1_048_576,
  }),
  ARGON2_TIME_COST: Type.Integer({
    description: 'argon2id passes of new hashes, when PASSWORD_HASH=argon2id',
    default: 2,
    minimum: 1,
    maximum: 10,
  }),
  /** First ADMIN: created at start-up when no account has this address (see the README). */
  ADMIN_EMAIL: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$', maxLength: 254 })),
  ADMIN_PASSWORD: Type.Optional(
    Type.String({
      description: 'Password of the first ADMIN (with ADMIN_EMAIL); remove both once the account exists',
      minLength: 1,
    }),
  ),
  ADMIN_NAME: Type.String({
    description: 'Display name of the first ADMIN',
    default: 'Administrator',
    minLength: 1,
    maxLength: 100,
  }),
  /** GitHub-style OAuth 2 sign-in; enabled when both the id and the secret are set. */
  GITHUB_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  GITHUB_CLIENT_SECRET: Type.Optional(
    Type.String({ description: 'OAuth client secret of GitHub sign-in (with GITHUB_CLIENT_ID)', minLength: 1 }),
  ),
  GITHUB_AUTHORIZE_URL: Type.String({
    description: "GitHub's authorization endpoint (another provider of the same protocol, or a test one)",
    default: 'https://github.com/login/oauth/authorize',
    pattern: '^https?://',
  }),
  GITHUB_TOKEN_URL: Type.String({
    description: "GitHub's token endpoint",
    default: 'https://github.com/login/oauth/access_token',
    pattern: '^https?://',
  }),
  GITHUB_API_URL: Type.String({
    description: "GitHub's API, where the signed-in user's profile and emails are read",
    default: 'https://api.github.com',
    pattern: '^https?://',
  }),
  /**
   * Google-style OpenID Connect sign-in; enabled when both the id and the secret are set. Provider addresses
   * must be https, except an issuer on this machine (http://127.0.0.1, localhost, [::1]) for local providers.
   */
  GOOGLE_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  GOOGLE_CLIENT_SECRET: Type.Optional(
    Type.String({
      description: 'OpenID Connect client secret of Google sign-in (with GOOGLE_CLIENT_ID)',
      minLength: 1,
    }),
  ),
  GOOGLE_ISSUER: Type.String({
    description: 'OpenID Connect issuer whose discovery document names the endpoints and keys',
    default: 'https://accounts.google.com',
    pattern: '^https?://',
  }),
});
export type GatewayConfig = Static<typeof GatewayConfig>;

/**
 * Fastify's `trustProxy` of the settings: the TRUSTED_PROXIES list, or TRUST_PROXY (every peer, or none). Fastify
 * then reads the client address, protocol and host from X-Forwarded-* only on connections from those peers.
 */
export function trustProxyOf(config: Pick<GatewayConfig, 'TRUST_PROXY' | 'TRUSTED_PROXIES'>): boolean | string[] {
  if (config.TRUSTED_PROXIES === undefined) return config.TRUST_PROXY;
  if (config.TRUST_PROXY) throw new Error('Set TRUST_PROXY or TRUSTED_PROXIES, not both');
  return config.TRUSTED_PROXIES.split(',').map((a) => a.trim());
}

/**
 * Settings a gateway running as its own process (cluster mode) must have. PUBLIC_URL: without it links, a
 * password-reset email's included, start with whatever Host a request names, and anyone can poison them.
 */
export function assertClusterSettings(config: Pick<GatewayConfig, 'PUBLIC_URL'>): void {
  if (!config.PUBLIC_URL) {
    throw new ConfigError(
      'PUBLIC_URL: required when the gateway runs as its own process (not set): links in emails would otherwise ' +
        "start with the address a request's Host header names, e.g. PUBLIC_URL=https://rootline.example.org",
    );
  }
}
