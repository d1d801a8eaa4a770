import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  PAGE_DEFAULTS,
  SeedHandoff,
  seedHandoffCreate,
  seedHandoffList,
  seedHandoffReceive,
} from '@rootline/contracts';
import { busRoute } from '../http/bus-route.js';
import { type NamingRouteDeps, stater } from './plants.js';

const TAGS = ['Seed lots'];
const PAGING = `\`page\` from 1 (default ${PAGE_DEFAULTS.page}); \`limit\` default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`;
const RETRIES =
  'Send an `Idempotency-Key` header (a fresh UUID per new request, the same one for its retries): a retry with ' +
  'the same key and body gets the first answer for 24 h and is recorded once.';
const PEER_REFUSALS =
  '404 NOT_FOUND `reason: unknown-peer` (no such peer in PEERS) or `not-on-peer` (the peer has no such ' +
  'transaction: an unknown or mistyped handoff id), 409 CONFLICT `reason: peer-forked` (the peer’s log forked, ' +
  'even for a transaction verified before), 422 UNPROCESSABLE `reason: bundle-unverified` (its proof does not ' +
  'verify), 503 UNAVAILABLE `reason: peer-unreachable` (the peer does not answer; nothing is written)';

/** Seed handed across nodes, beside the seed-lot routes under /api/seed-lots (docs/federation.md; ADR 309, 310). */
export const seedHandoffRoutes: FastifyPluginAsyncTypebox<NamingRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '/:seedLotId/handoffs',
    summary: 'Hand seed of a lot to a grower on another node',
    description:
      'The lot’s holder (the account, or an owner or manager of the owning organization acting for it) hands part ' +
      'of it to a grower on a peer node: `peer` is a name of this node’s PEERS (404 `reason: unknown-peer` ' +
      'otherwise; no URL is accepted), `recipient` who receives it there (a name or their account id on the peer, ' +
      'recorded as stated). `quantity.amount` is in the lot’s unit and goes down under the lot’s lock, never below ' +
      'zero: more than the lot holds is 409 CONFLICT (`reason: exceeds-lot`, `details.available`, `details.unit`); ' +
      'a discarded lot is 409 (`reason: discarded`). The answer carries the handoff `id` (a `urn:uuid`) to pass on ' +
      'to the recipient, who receives it on their node with `POST /api/seed-lots/incoming`. The handoff is a ' +
      '`seed-sharing` journey event on the ledger (`eventId`, `transactionId`) naming the handoff id and the lot’s ' +
      'crop, variety and harvest year; its id follows from the handoff id, which is how the peer finds and ' +
      `verifies it. The change of quantity is recorded with reason \`handed-off\`. ${RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      orgRole: 'manager',
      object: {
        rule: 'owner',
        field: 'seedLotId',
        record: 'seed lot',
        why: 'its holder: the owner, or an owner or manager of the owning organization',
      },
    },
    subject: seedHandoffCreate,
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT', 'CHAIN_ERROR', 'UNAVAILABLE', 'IDEMPOTENCY_KEY_REUSED'],
    example: { peer: 'north-farm', quantity: { amount: 40 }, recipient: 'Ana Grower' },
    input: async (req) => {
      const { seedLotId } = req.params as { seedLotId: string };
      return { ...(req.body as object), seedLotId, callerName: stater(req) } as never;
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/:seedLotId/handoffs',
    summary: 'List a lot’s handoffs across nodes',
    description:
      'The handoffs of a lot, newest first: `outgoing` ones (seed handed from it to a peer) and the `incoming` one ' +
      'it was received by (with `source`: the lot on the peer and the proof it was accepted on). Read by the lot’s ' +
      `holder (viewer of an owning organization and up) and ADMINs; anyone else gets 404. ${PAGING}`,
    tags: TAGS,
    policy: {
      permission: 'plants:read',
      object: { rule: 'owner', field: 'seedLotId', record: 'seed lot', why: 'its holder' },
    },
    subject: seedHandoffList,
    errors: ['NOT_FOUND'],
    page: { item: SeedHandoff },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/incoming',
    summary: 'Receive seed handed from another node',
    description:
      'The recipient claims a handoff of a peer (`peer`, a name of PEERS; `handoffId`, the `urn:uuid` the giver ' +
      'passed on). Before anything is written, this node verifies the peer’s ledger transaction of the handoff ' +
      'through its mirror of the peer’s log, as for a remote parent: ' +
      `${PEER_REFUSALS}. It must be a \`seed-sharing\` event naming that handoff id (422 \`reason: not-a-handoff\` ` +
      'otherwise). A new lot is then held by the caller (or the organization it acts for) with the crop, variety, ' +
      'harvest year and quantity the peer recorded, `receivedFrom` naming the peer’s lot, the handoff, the block, ' +
      'the bundle’s digest and the mirrored checkpoint; an incoming `seed-sharing` journey event with the same ' +
      'handoff id is recorded here. A handoff is received once: again by the same caller answers the same lot ' +
      `(201), by anyone else 409 \`reason: handoff-claimed\`. ${RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      object: { rule: 'own', why: 'the new lot is the caller’s, or the organization’s it acts for' },
    },
    subject: seedHandoffReceive,
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'UNAVAILABLE', 'CHAIN_ERROR', 'IDEMPOTENCY_KEY_REUSED'],
    example: { peer: 'north-farm', handoffId: 'urn:uuid:3f2b8c1e-9d4a-4e6b-8f1c-2a7d5e9b0c34' },
    input: async (req) => ({ ...(req.body as object), callerName: stater(req) }) as never,
  });
};
