import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PeopleQuery, PersonName } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { localRoute } from '../http/local-route.js';
import type { AccountNames } from '../http/party-names.js';

export interface PeopleRouteDeps {
  /** The accounts' current display names by id (cached briefly, ADR 194). */
  accountNames: AccountNames;
}

/** Display names of accounts under /api/people, for pages that show records naming people by id (ADR 200). */
export const peopleRoutes: FastifyPluginAsyncTypebox<PeopleRouteDeps> = async (app, { accountNames }) => {
  localRoute(app, {
    method: 'GET',
    url: '',
    operationId: 'listPeople',
    summary: 'Display names of accounts',
    description:
      'The display names of the accounts whose ids are given, in the order given, in one read: what a page shows ' +
      "for a seller, buyer, owner or handler that a record names by id. An organization's id (an owner of records, " +
      "docs/organizations.md) answers the organization's name. Ids no account or organization has are left out. Only the " +
      'name, as records that name the account already show it: never an email address or a role.',
    tags: ['People'],
    policy: {
      public: true,
      object: { rule: 'none', why: 'display names, as the public records that name the accounts show them' },
    },
    querystring: PeopleQuery,
    reply: Type.Array(PersonName),
    replyExample: [{ id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD', name: 'Ada Grower' }],
    handler: async (req) => {
      const ids = [...new Set(req.query.ids.split(','))];
      const names = await accountNames(ids);
      return ids.flatMap((id) => {
        const name = names.get(id);
        return name === undefined ? [] : [{ id, name }];
      });
    },
  });
};
