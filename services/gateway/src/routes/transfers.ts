import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  OwnershipChange,
  OwnershipTransfer,
  plantOwnershipHistory,
  transferAccept,
  transferCancel,
  transferDecline,
  transferGet,
  transferList,
  transferPropose,
} from '@rootline/contracts';
import { busRoute } from '../http/bus-route.js';
import { withAccountNames } from '../http/party-names.js';
import type { NamingRouteDeps } from './plants.js';

const TAGS = ['Transfers'];
const RETRIES =
  'Send an `Idempotency-Key` header (a fresh UUID per new request, the same one for its retries): a retry with ' +
  'the same key and body gets the first answer for 24 h and is recorded once.';
const SIDES =
  'A side is a person (its account) or an organization; an owner or manager of the organization acts for it ' +
  '(`Rootline-Act-As`, ADR 237): a member or viewer acting for it is 403 FORBIDDEN (`details.reason: org-role`, ' +
  '`required: manager`). An ADMIN is no side of anyone’s transfer.';

/**
 * Ownership transfers under /api/transfers (docs/transfers.md): proposed by the giving side, accepted or declined by
 * the recipient, cancelled by the giver while pending; an accepted one is on the ledger (`ownership.transfer`).
 */
export const transferRoutes: FastifyPluginAsyncTypebox<NamingRouteDeps> = async (app, deps) => {
  const names = (data: unknown) => withAccountNames(data, deps.accountNames);
  const answer = {
    method: 'POST' as const,
    tags: TAGS,
    answer: names,
    errors: ['NOT_FOUND', 'CONFLICT'] as const,
  };

  busRoute(app, deps, {
    method: 'POST',
    url: '',
    summary: 'Propose an ownership transfer',
    description:
      'Proposes to give a record one owns (`subjectType` `plant` or `seed-lot`, `subjectId` its id) to a person or an ' +
      'organization (`to.id`, an account id or an organization id; `to.name` is filled in with its name). The ' +
      'giving side is the record’s owner: the person, or an owner or manager of the owning organization acting for ' +
      `it. ${SIDES} The recipient hears of it (in the app and by email, as their preferences say; an ` +
      'organization’s owners and managers). A record has at most one pending transfer: a new proposal withdraws the ' +
      'pending one (`cancelled`, its recipient told), unless it is being accepted (409 CONFLICT, `details.reason: ' +
      'accepting`); of two proposals at once one is 409 CONFLICT (`transfer-pending`, `details.transferId`). Nothing is on the ledger until it is accepted. ' +
      'A discarded seed lot, or one with nothing left, is 409 CONFLICT (`details.reason: lot-discarded`, ' +
      '`lot-empty`); accepting the transfer of a lot discarded or emptied meanwhile is refused the same way. ' +
      '`to.id` of no account or organization is 404 NOT_FOUND (`details.field: to.id`); the owner itself is 400 ' +
      `VALIDATION_ERROR (\`reason: same-owner\`). ${RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      orgRole: 'manager',
      object: {
        rule: 'owner',
        field: 'subjectId',
        record: 'plant or seed lot',
        why: 'the giving side: the owner, or an owner or manager of the owning organization',
      },
    },
    subject: transferPropose,
    status: 201,
    answer: names,
    errors: ['NOT_FOUND', 'CONFLICT', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      subjectType: 'plant',
      subjectId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      to: { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1ME' },
      message: 'A cutting of the tomato you liked',
    },
    input: async (req) => {
      const body = req.body as { to: { id: string; name?: string } };
      const name = await deps.accountName(body.to.id);
      if (name === null) {
        throw new AppError('NOT_FOUND', `No account or organization has the id ${body.to.id}`, {
          field: 'to.id',
          reason: 'unknown-recipient',
        });
      }
      return { ...(req.body as object), to: { id: body.to.id, name } } as never;
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '',
    summary: 'List my transfers',
    description:
      'The transfers to (`direction=incoming`) or from (`outgoing`) the caller, or the organization it acts for ' +
      '(any member acting for it reads them), newest first; both directions by default. `status` and `subjectId` ' +
      'narrow it. `page` from 1; `limit` default 20, at most 100.',
    tags: TAGS,
    policy: {
      permission: 'plants:read',
      object: { rule: 'own', why: 'the transfers of the caller or the organization it acts for' },
    },
    subject: transferList,
    answer: names,
    page: { item: OwnershipTransfer },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/:transferId',
    summary: 'Read a transfer',
    description:
      'A transfer, to its sides only (a person, or any member of a side’s organization acting for it) and ADMINs; ' +
      'anyone else gets 404 NOT_FOUND, as for an unknown id.',
    tags: TAGS,
    policy: {
      permission: 'plants:read',
      object: { rule: 'party', field: 'transferId', record: 'transfer', why: 'its giving and receiving sides' },
    },
    subject: transferGet,
    answer: names,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    ...answer,
    url: '/:transferId/accept',
    summary: 'Accept a transfer',
    description:
      'The recipient accepts a pending transfer: it is recorded on the ledger as an `ownership.transfer` ' +
      'transaction naming the record, both sides and who signed for each (`givenBy`, `acceptedBy`: the account and ' +
      'the organization it acted for), and the record’s owner becomes the recipient. Answers the transfer with its ' +
      `block. ${SIDES} A transfer no longer pending is 409 CONFLICT (\`reason: not-pending\`, \`status\`). ` +
      `503 UNAVAILABLE (with Retry-After) means the ledger did not answer: retry. ${RETRIES}`,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      orgRole: 'manager',
      object: { rule: 'party', field: 'transferId', record: 'transfer', why: 'the receiving side' },
    },
    subject: transferAccept,
    errors: ['NOT_FOUND', 'CONFLICT', 'CHAIN_ERROR', 'IDEMPOTENCY_KEY_REUSED'],
  });

  busRoute(app, deps, {
    ...answer,
    url: '/:transferId/decline',
    summary: 'Decline a transfer',
    description: `The recipient declines a pending transfer; the giving side hears of it. ${SIDES} ${RETRIES}`,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      orgRole: 'manager',
      object: { rule: 'party', field: 'transferId', record: 'transfer', why: 'the receiving side' },
    },
    subject: transferDecline,
    errors: ['NOT_FOUND', 'CONFLICT', 'IDEMPOTENCY_KEY_REUSED'],
  });

  busRoute(app, deps, {
    ...answer,
    url: '/:transferId/cancel',
    summary: 'Cancel a transfer',
    description: `The giving side withdraws a pending transfer; the recipient hears of it. ${SIDES} ${RETRIES}`,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      orgRole: 'manager',
      object: { rule: 'party', field: 'transferId', record: 'transfer', why: 'the giving side' },
    },
    subject: transferCancel,
    errors: ['NOT_FOUND', 'CONFLICT', 'IDEMPOTENCY_KEY_REUSED'],
  });
};

/** GET /api/plants/ownership/:plantId: a plant's ownership history (registered beside the plant routes). */
export const ownershipHistoryRoute: FastifyPluginAsyncTypebox<NamingRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '/ownership/:plantId',
    summary: 'Ownership history of a plant',
    description:
      'The accepted transfers of a plant, oldest first, as the ledger recorded them (`ownership.transfer`): from, ' +
      'to, who signed for each side, when, and the block. Public, like the ledger.',
    tags: ['Plants'],
    policy: { public: true, identifiesCaller: true, object: { rule: 'public', field: 'plantId', record: 'plant' } },
    subject: plantOwnershipHistory,
    answer: (data) => withAccountNames(data, deps.accountNames),
    list: { item: OwnershipChange },
    errors: ['NOT_FOUND'],
  });
};
