import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  auditPublicGet,
  CertificateRevocation,
  certificateRevocationsGet,
  certificateRevoke,
  checkpointGet,
  consistencyProofGet,
  inclusionProofGet,
  logTileGet,
  PlatformKey,
  plantProofBundleGet,
  platformKeysGet,
  publicKeyGet,
  treeHeadGet,
  txProofBundleGet,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';
import { callContext } from '../http/request-context.js';
import { errorResponses } from '../plugins/openapi.js';
import { parseTilePath } from '../transparency/tile-path.js';

const TAGS = ['Transparency'];

/** An answer that can never change (an entry, a proof between fixed sizes): any cache may keep it for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** An answer about the log as it is now: caches keep it for a few seconds. */
export const CURRENT = 'public, max-age=10';

const LOG = { rule: 'none', why: 'the whole log, in hashes' } as const;

/**
 * The audit log as anyone may check it, without an account: checkpoints, signed tree heads, the signing keys,
 * inclusion and consistency proofs and the public form of entries. Rate-limited per address like every route;
 * answers that cannot change are marked immutable so that any cache or CDN can serve them.
 */
export const transparencyLogRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '/audit/checkpoint',
    summary: 'Current checkpoint (signed note)',
    description:
      'The log’s size and root hash as a C2SP tlog-checkpoint (`<origin>\\n<size>\\n<base64 root>\\n`) in a C2SP ' +
      'signed note, signed with the platform Ed25519 key under the origin as key name (see `/audit/keys` for the ' +
      'verifier key). The same note for the same size: it can be compared byte for byte. No account needed.',
    tags: TAGS,
    policy: { public: true, object: LOG },
    subject: checkpointGet,
    cache: () => CURRENT,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/audit/keys',
    summary: 'Every platform signing key',
    description:
      'Every key the platform has signed tree heads, checkpoints and certificates with, newest first, with its id ' +
      '(SHA-256 of the raw key), its signed-note key id and verifier key, and when it was in use: what a retired ' +
      'key signed while it was current still verifies. No account needed.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'the platform’s keys' } },
    subject: platformKeysGet,
    list: { item: PlatformKey },
    cache: () => CURRENT,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/audit/tree-head',
    summary: 'Signed tree head',
    description:
      'The size and Merkle root of the log, signed now with the platform Ed25519 key (`/audit/public-key`). The ' +
      'signature covers the RFC 6962 TreeHeadSignature bytes: 0x00, 0x01, timestamp ms (uint64 big-endian), tree ' +
      'size (uint64 big-endian), root hash (32 bytes). No account needed.',
    tags: TAGS,
    policy: { public: true, object: LOG },
    subject: treeHeadGet,
    cache: () => 'no-store',
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/audit/public-key',
    summary: 'Platform public key',
    description:
      'The current Ed25519 public key that signs tree heads, checkpoints and certificates, raw (base64) and PEM, ' +
      'with its id (SHA-256 of the raw key). Every key, retired ones included: `/audit/keys`.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'the platform’s key' } },
    subject: publicKeyGet,
    cache: () => CURRENT,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/audit/consistency',
    summary: 'Consistency proof',
    description:
      'RFC 6962 §2.1.2 proof that the tree of `first` entries is a prefix of the tree of `second` entries (default ' +
      'the current size), with both roots. Immutable (cached for a year) when `second` is given. No account needed.',
    tags: TAGS,
    policy: { public: true, object: LOG },
    subject: consistencyProofGet,
    cache: (q) => (q.second === undefined ? CURRENT : IMMUTABLE),
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/audit/:index/proof',
    summary: 'Inclusion proof of an entry',
    description:
      'RFC 6962 §2.1.1 audit path of entry `index` in the tree of `treeSize` entries (default the current size), with ' +
      'its leaf hash and the root. 404 when the entry is not in that tree. Immutable (cached for a year) when ' +
      '`treeSize` is given. No account needed.',
    tags: TAGS,
    policy: {
      public: true,
      object: { rule: 'public', field: 'index', record: 'audit entry', why: 'a proof shows hashes only' },
    },
    subject: inclusionProofGet,
    errors: ['NOT_FOUND'],
    cache: (q) => (q.treeSize === undefined ? CURRENT : IMMUTABLE),
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/audit/:index/public',
    summary: 'Public form of an audit entry',
    description:
      'What anyone may see of entry `index`: its leaf hash, the hash of the entry before, its kind and times, and for ' +
      'an event of a public kind the record it concerns and the public form of its payload (as the public event ' +
      'history shows it). `entry` is the whole entry as hashed when it holds nothing more, so its leaf hash can be ' +
      'recomputed; otherwise null (docs/transparency.md says why). Immutable. No account needed.',
    tags: TAGS,
    policy: {
      public: true,
      object: { rule: 'public', field: 'index', record: 'audit entry', why: 'the public form only' },
    },
    subject: auditPublicGet,
    errors: ['NOT_FOUND'],
    cache: () => IMMUTABLE,
  });

  const BUNDLE =
    'Everything needed to check it offline, without an account and without trusting the platform: the transaction ' +
    '(payload as hashed), its RFC 6962 path to the block’s Merkle root, the block header with its proof of work and ' +
    'the header before it (the link to the chain), and, for a plant’s registration, the public form of its audit ' +
    'entry with its inclusion proof in the current tree and that tree’s signed checkpoint. `rootline-verify bundle` ' +
    'checks it.';

  busRoute(app, deps, {
    method: 'GET',
    url: '/proofs/plants/:plantId',
    summary: 'Proof bundle of a plant',
    description: `The proof bundle of the ledger transaction that registered the plant. ${BUNDLE}`,
    tags: TAGS,
    policy: { public: true, object: { rule: 'public', field: 'plantId', record: 'plant' } },
    subject: plantProofBundleGet,
    errors: ['NOT_FOUND'],
    cache: () => CURRENT,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/proofs/transactions/:txId',
    summary: 'Proof bundle of a ledger transaction',
    description: `The proof bundle of any ledger transaction. ${BUNDLE}`,
    tags: TAGS,
    policy: { public: true, object: { rule: 'public', field: 'txId', record: 'ledger transaction' } },
    subject: txProofBundleGet,
    errors: ['NOT_FOUND'],
    cache: () => CURRENT,
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/certificates/:certificateId/revoke',
    summary: 'Revoke a certificate',
    description:
      'The plant’s owner or an ADMIN revokes a certificate of authenticity (its `certificateId`) with a reason. The ' +
      'revocation is appended to the audit log (`admin.certificate-revoked`) and listed, with its reason, in the ' +
      'public signed revocation list; the plant’s next certificate gets a new id. 409 when it is revoked already.',
    tags: TAGS,
    policy: {
      permission: 'plants:write',
      object: { rule: 'owner', field: 'certificateId', record: 'certificate', why: 'the owner of its plant' },
    },
    subject: certificateRevoke,
    reply: CertificateRevocation,
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT'],
    example: { reason: 'The plant was sold; this copy is void' },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/certificates/revocations',
    summary: 'Signed list of revoked certificates',
    description:
      'Every revoked certificate with when, why and the audit entry recording it, signed with the platform key over ' +
      'the RFC 8785 JSON of `list`, with the checkpoint of the audit log that holds every listed revocation. ' +
      '`rootline-verify certificate … --revocations` checks it. No account needed.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'public revocations' } },
    subject: certificateRevocationsGet,
    cache: () => CURRENT,
  });

  // The log as c2sp.org/tlog-tiles: static resources under one prefix, so tiled-log tooling and any CDN can serve it.
  app.route({
    method: 'GET',
    url: '/log/checkpoint',
    config: { public: true, object: LOG },
    schema: {
      operationId: 'getLogCheckpointNote',
      summary: 'Checkpoint of the tiled log (text)',
      description:
        'The current checkpoint as the signed note itself (`text/plain`), at `<prefix>/checkpoint` of the log served as ' +
        'c2sp.org/tlog-tiles with prefix `/api/transparency/log`: Merkle tiles at `tile/<L>/<N>[.p/<W>]` and entry ' +
        'bundles (each entry the RFC 8785 JSON that is hashed, after a big-endian uint16 length) at ' +
        '`tile/entries/<N>[.p/<W>]`, immutable and cached for a year. No account needed.',
      tags: TAGS,
      response: {
        200: { description: 'The signed note', content: { 'text/plain': { schema: { type: 'string' } } } },
        ...errorResponses(['RATE_LIMITED', 'INTERNAL', 'UNAVAILABLE']),
      },
    },
    handler: async (req, reply) => {
      const { note } = await call(deps.bus, checkpointGet, {}, callContext(req), deps.timeoutMs);
      reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=5');
      return note;
    },
  });

  // Tiles and entry bundles: paths of the specification's shape, so one wildcard route (kept out of the OpenAPI
  // document, where the checkpoint's description gives the layout).
  app.get('/log/tile/*', { config: { public: true, object: LOG }, schema: { hide: true } }, async (req, reply) => {
    const tile = parseTilePath((req.params as { '*': string })['*']);
    if (!tile) throw new AppError('NOT_FOUND', 'No such tile: paths are tile/<L>/<N>[.p/<W>] or tile/entries/<N>');
    const { bytes } = await call(deps.bus, logTileGet, tile, callContext(req), deps.timeoutMs);
    reply.type('application/octet-stream').header('cache-control', IMMUTABLE);
    return Buffer.from(bytes, 'base64');
  });
};
