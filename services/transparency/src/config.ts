import { Gs1CompanyPrefixSetting, PublicUrlSetting, withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';

/**
 * Settings of transparency: the shared base settings plus the audit log's signing key and origin, and the webhooks'
 * secret key, reach, timing and concurrency.
 */
export const TransparencyConfig = withBase({
  AUDIT_SIGNING_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Ed25519 private key (PKCS#8 PEM) that signs tree heads, checkpoints and certificates; without it one is ' +
        'generated once into DATA_DIR (set it when replicas do not share DATA_DIR). Once the log holds entries the ' +
        'service refuses to start without its key, and refuses a different key unless AUDIT_SIGNING_KEY_ROTATE is set',
    }),
  ),
  AUDIT_SIGNING_KEY_ROTATE: Type.Boolean({
    default: false,
    description:
      'Accept an AUDIT_SIGNING_KEY that is not the current key: the current key is retired (still published, so ' +
      'what it signed still verifies), the new one is recorded and the rotation is appended to the audit log',
  }),
  AUDIT_LOG_ORIGIN: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[^\\s+]+$',
      description:
        'The origin line of checkpoints and the name of the signing key in signed notes, a URL without scheme ' +
        '(e.g. `rootline.example.org/api/transparency/log`, the tiles prefix); unset, the host of PUBLIC_URL ' +
        'followed by `/api/transparency/log`, else `rootline.localhost/api/transparency/log`',
    }),
  ),
  AUDIT_WITNESSES: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Witnesses asked to cosign each new checkpoint (c2sp.org/tlog-witness), comma-separated, each `<verifier ' +
        'key> <submission prefix URL>` (the witness vkey of type 0x04; the request goes to `<prefix>/add-checkpoint`). ' +
        'Their cosignatures are served as extra signature lines of the checkpoint note',
    }),
  ),
  AUDIT_WITNESS_POLL_MS: Type.Integer({
    default: 5000,
    minimum: 20,
    maximum: 3_600_000,
    description: 'How often the log looks for a checkpoint its witnesses have not cosigned yet',
  }),
  AUDIT_WITNESS_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 100,
    maximum: 120_000,
    description: 'Wait for one witness’s answer; a slow witness delays only its own cosignature, never the log',
  }),
  WITNESS_LOGS: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Logs this node witnesses (c2sp.org/tlog-witness at /api/transparency/witness/add-checkpoint), ' +
        'comma-separated, each `[<origin> ]<log verifier key>` (type 0x01); the origin defaults to the key name. ' +
        'Unset, the witness cosigns nothing',
    }),
  ),
  WITNESS_NAME: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[^\\s+]+$',
      description:
        'The witness’s key name in cosignatures, a URL without scheme; unset, the host of PUBLIC_URL followed by ' +
        '`/api/transparency/witness`, else `rootline.localhost/api/transparency/witness`',
    }),
  ),
  WITNESS_SIGNING_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Ed25519 private key (PKCS#8 PEM) the witness cosigns with, never the log’s own key; without it one is ' +
        'generated once into DATA_DIR (set it when replicas do not share DATA_DIR)',
    }),
  ),
  PEERS: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Other Rootline nodes this node peers with (docs/federation.md, Peering), comma-separated, each `<name> ' +
        '<base URL> <log verifier key> <witness verifier key>` (name: lowercase letters, digits, dashes; the log ' +
        'key of type 0x01 names its origin; the witness key of type 0x04). A peer is a log this node witnesses (as ' +
        'in WITNESS_LOGS), a witness this node asks (as in AUDIT_WITNESSES, at `<base URL>/api/transparency/witness`) ' +
        'and a log this node mirrors',
    }),
  ),
  PEER_POLL_MS: Type.Integer({
    default: 30_000,
    minimum: 20,
    maximum: 3_600_000,
    description: 'How often each peer’s checkpoint is fetched, verified and mirrored',
  }),
  PEER_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 100,
    maximum: 120_000,
    description: 'Wait for one answer of a peer (a checkpoint, a proof, a bundle)',
  }),
  WEBHOOK_SECRET_KEY: Type.Optional(
    Type.String({
      minLength: 44,
      description:
        'AES-256 key (32 bytes, base64) that seals webhook secrets at rest; without it one is generated once into ' +
        'DATA_DIR (set it when replicas do not share DATA_DIR). A service with sealed secrets and no key refuses to start',
    }),
  ),
  WEBHOOK_SECRET_KEYS_PREVIOUS: Type.Optional(
    Type.String({
      minLength: 44,
      description:
        'Earlier WEBHOOK_SECRET_KEY values (comma-separated) after a rotation: secrets sealed under them are ' +
        're-sealed under the current key at start, then they may be removed',
    }),
  ),
  WEBHOOK_ALLOW_PRIVATE: Type.Boolean({
    default: false,
    description: 'Let webhooks reach private, loopback and link-local addresses (closed networks and tests only)',
  }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 100,
    maximum: 60_000,
    description: 'Wait for a receiver',
  }),
  WEBHOOK_POLL_MS: Type.Integer({
    default: 1000,
    minimum: 20,
    maximum: 60_000,
    description: 'Look for due deliveries',
  }),
  WEBHOOK_RETRY_SCALE: Type.Number({
    default: 1,
    exclusiveMinimum: 0,
    maximum: 1,
    description: 'Multiplies the retry schedule (tests shrink it)',
  }),
  WEBHOOK_CONCURRENCY: Type.Integer({
    default: 128,
    minimum: 1,
    maximum: 1024,
    description: 'Deliveries sent at once (split between four claim-send-record loops)',
  }),
  WEBHOOK_DISABLE_AFTER_HOURS: Type.Number({
    default: 72,
    exclusiveMinimum: 0,
    maximum: 8760,
    description: 'Disable a webhook (and tell its owner) whose every attempt has failed for this long',
  }),
  /**
   * Certificate and label QR codes encode plants' GS1 Digital Link URIs <PUBLIC_URL>/8004/<GIAI>, and EPCIS exports
   * name their extension fields under <PUBLIC_URL>/ns/epcis#; unset, the address the request came through.
   */
  PUBLIC_URL: PublicUrlSetting,
  /** The company prefix of plants' GIAIs in their Digital Link URIs (ADR 275). */
  GS1_COMPANY_PREFIX: Gs1CompanyPrefixSetting,
});
