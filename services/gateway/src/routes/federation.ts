import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FederationPeer, federationPeersList, peerBundleGet } from '@rootline/contracts';
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
};
