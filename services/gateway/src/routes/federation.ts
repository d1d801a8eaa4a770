import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FederationPeer, federationPeersList, peerBundleGet, peerForkClear } from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Transparency'];

/**
 * Peering (docs/federation.md): the other Rootline nodes this one witnesses and mirrors, and their proof bundles
 * as this node verified them. Public, like the logs they mirror.
 */
export const federationRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '/peers',
    summary: 'Peers and their mirrored checkpoints',
    description:
      'Every peer set in PEERS with the latest checkpoint of its log this node verified (signed by the peer’s log ' +
      'key and consistent with every checkpoint mirrored before), when, and the peer’s state: `pending` before the ' +
      'first fetch, `ok`, `unreachable` (the last fetch failed or did not verify) or `fork` (the peer showed a ' +
      'checkpoint inconsistent with the mirror; `forkCheckpoint` is that signed checkpoint, evidence anyone can ' +
      'check). No account needed.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'the node’s public peering state' } },
    subject: federationPeersList,
    list: { item: FederationPeer },
    cache: () => 'public, max-age=10',
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/peers/:peer/bundles/:entryId',
    summary: 'A peer’s proof bundle, verified here',
    description:
      'The proof bundle of a plant’s registration (`plt_…`) or a ledger transaction (`tx_…`) on the peer, fetched ' +
      'from it the first time and kept: its audit proof leads to the root of its checkpoint, the checkpoint is ' +
      'signed by the peer’s log key, and it is the mirrored checkpoint or consistent with it (`mirrored`). The ' +
      'ledger part (block and proof of work) is as the peer served it: `rootline-verify bundle` checks it. 404 ' +
      'for an unknown peer or entry, 409 when the peer’s log forked, 422 when the bundle does not verify (a ' +
      'transaction that is not a plant’s registration has no audit proof), 503 when the peer cannot be reached. ' +
      'No account needed.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'a public bundle of another node' } },
    subject: peerBundleGet,
    errors: ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'UNAVAILABLE'],
    cache: () => 'public, max-age=60',
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/peers/:peer/clear-fork',
    summary: 'Clear a peer’s fork',
    description:
      'An ADMIN clears a peer’s `fork` state once it has been dealt with (the peer’s operator found and fixed the ' +
      'cause, or the peer was re-keyed), with a `reason`. In one step under the peer’s lock, the evidence (the ' +
      'mirrored checkpoint, the inconsistent `forkCheckpoint` and the problem) is appended to the audit log as ' +
      '`admin.peer-fork-cleared` with the reason, and what this node held of the peer (its mirror and cached ' +
      'bundles) is forgotten: the peer is `pending` again and its mirror starts from the peer’s current checkpoint ' +
      'at the next poll. Links already accepted on the peer’s proofs keep their digests. 404 `reason: ' +
      'unknown-peer` for a name not in PEERS; 409 CONFLICT `reason: not-forked` when the peer is not a fork ' +
      '(nothing is written); anyone but an ADMIN 403.',
    tags: TAGS,
    policy: {
      permission: 'transparency:write',
      object: { rule: 'none', why: 'the node’s peering state, an operator’s act' },
    },
    subject: peerForkClear,
    errors: ['NOT_FOUND', 'CONFLICT'],
    example: {
      reason: 'The peer restored its log from a backup after a disk failure; its operator confirmed the cause',
    },
    input: async (req) => ({ ...(req.body as object), peer: (req.params as { peer: string }).peer }) as never,
  });
};
