import { ConfigError, PublicUrlSetting, withBase } from '@rootline/host';
import { type Static, Type } from '@sinclair/typebox';

/** Settings of notify: the shared base settings plus where and how it sends. */
export const NotifyConfig = withBase({
  /**
   * Public address of the API: links in emails and pushes start with it. Unset: the address of the request that
   * caused the message (carried by its event), and http://localhost:3000 for the weekly digest (warned at start).
   */
  PUBLIC_URL: PublicUrlSetting,
  /** SMTP server, e.g. `smtp://user:pass@mail.example.org:587` (`smtps://` for TLS from the start). */
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({
    description: 'Sender of emails (From header)',
    default: 'Rootline <no-reply@rootline.local>',
    minLength: 3,
  }),
  /** Key of unsubscribe links; without it one is derived from JWT_SECRET (embedded mode has one). */
  UNSUBSCRIBE_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  JWT_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description:
        "The gateway's JWT_SECRET: the key of unsubscribe links is derived from it unless UNSUBSCRIBE_SECRET is set",
    }),
  ),
  /** VAPID key pair of Web Push (base64url); without them a pair is generated once under DATA_DIR. */
  VAPID_PUBLIC_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{80,100}$' })),
  VAPID_PRIVATE_KEY: Type.Optional(
    Type.String({
      description: 'Private half of the Web Push VAPID pair (base64url); set with VAPID_PUBLIC_KEY',
      pattern: '^[A-Za-z0-9_-]{40,50}$',
    }),
  ),
  /** Contact the push services may use (mailto: or https:), sent in the VAPID token. */
  VAPID_SUBJECT: Type.String({ default: 'mailto:admin@rootline.local', pattern: '^(mailto:|https://)' }),
  /** Extra CA certificates (PEM file) trusted for push services, e.g. a private push gateway. */
  PUSH_CA_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * How often the sender looks for due deliveries: retries that fell due, and any it was not woken for (a recorded
   * delivery wakes the senders at once).
   */
  NOTIFY_POLL_MS: Type.Integer({ default: 5000, minimum: 10, maximum: 60_000 }),
  /** Back-off of failed sends: the first retry after this, doubling up to NOTIFY_RETRY_MAX_MS. */
  NOTIFY_RETRY_BASE_MS: Type.Integer({ default: 5000, minimum: 10, maximum: 3_600_000 }),
  NOTIFY_RETRY_MAX_MS: Type.Integer({
    description: 'Longest wait between two attempts of a failed send',
    default: 3_600_000,
    minimum: 10,
    maximum: 86_400_000,
  }),
  /** How often each instance checks whether last week's digest is made (the first check after Monday 00:00 UTC makes it). */
  DIGEST_POLL_MS: Type.Integer({ default: 300_000, minimum: 10, maximum: 86_400_000 }),
  /** Attempts before a delivery is given up (status failed). */
  NOTIFY_MAX_ATTEMPTS: Type.Integer({ default: 8, minimum: 1, maximum: 50 }),
  /** Wait before asking the gateway again for its accounts when it did not answer at start. */
  RECIPIENT_SYNC_RETRY_MS: Type.Integer({ default: 10_000, minimum: 10, maximum: 3_600_000 }),
});
export type NotifyConfig = Static<typeof NotifyConfig>;

/**
 * Settings notify must have in cluster mode (a DATABASE_URL: a process of its own, restarted and re-created at
 * will). PUBLIC_URL: the weekly digest's links have no request to take an address from. UNSUBSCRIBE_SECRET or
 * JWT_SECRET: the key of unsubscribe links already sent, which a random key per process would break at restart.
 */
export function assertClusterSettings(config: NotifyConfig): void {
  if (!config.DATABASE_URL) return;
  const missing = [
    ...(config.PUBLIC_URL ? [] : ['PUBLIC_URL: required in cluster mode, the address links in emails start with']),
    ...(config.UNSUBSCRIBE_SECRET || config.JWT_SECRET
      ? []
      : ['UNSUBSCRIBE_SECRET (or JWT_SECRET): required in cluster mode, the key of unsubscribe links']),
  ];
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n  ${missing.join('\n  ')}`);
}
