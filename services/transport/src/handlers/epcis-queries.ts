import {
  AppError,
  EPCIS_NAMED_QUERY_LIMIT,
  type EpcisNamedQuery,
  type EpcisStoredQuery,
  transportEpcisQueryCreate,
  transportEpcisQueryDelete,
  transportEpcisQueryGet,
  transportEpcisQueryList,
} from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import {
  countNamedQueries,
  deleteNamedQuery,
  findNamedQuery,
  insertNamedQuery,
  listNamedQueries,
  type NamedQueryRow,
} from '../db/epcis-queries.repo.js';
import { deleteSubscriptionsOf } from '../db/epcis-subscriptions.repo.js';
import { type EpcisPlaces, NO_SGLNS } from '../domain/epcis-places.js';
import { planEpcisQuery } from '../domain/epcis-query.js';
import { removeSubscriptionWebhook } from './epcis-subscriptions.js';

const namedQuery = (row: NamedQueryRow): EpcisNamedQuery => ({
  name: row.name,
  query: row.query as EpcisStoredQuery,
  createdAt: new Date(row.createdAt).toISOString(),
});

/**
 * Named EPCIS queries (ADR 304): each account's own, under names only it sees: another account's query is not
 * found, as a name it never stored.
 */
export function epcisQueryHandlers(ctx: ServiceContext, companyPrefix: string, places: EpcisPlaces = NO_SGLNS) {
  const create = handle(transportEpcisQueryCreate, async ({ name, query }, caller) => {
    const accountId = actingUser(caller).id;
    // Checked as GET /events checks its parameters: a query that could not run is not stored.
    planEpcisQuery(query, companyPrefix, places);
    if ((await countNamedQueries(ctx.db, accountId)) >= EPCIS_NAMED_QUERY_LIMIT) {
      throw new AppError('CONFLICT', `At most ${EPCIS_NAMED_QUERY_LIMIT} named queries per account`, { field: 'name' });
    }
    const row = { accountId, name, query, createdAt: ctx.clock.now().toISOString() };
    if (!(await insertNamedQuery(ctx.db, row))) {
      throw new AppError('CONFLICT', `You already have a query named ${name}`, { field: 'name' });
    }
    return namedQuery(row);
  });

  const get = handle(transportEpcisQueryGet, async ({ name }, caller) => {
    const row = await findNamedQuery(ctx.db, actingUser(caller).id, name);
    if (!row) throw notFound('Named query', name);
    return namedQuery(row);
  });

  const list = handle(transportEpcisQueryList, async (_input, caller) => ({
    queries: (await listNamedQueries(ctx.db, actingUser(caller).id)).map(namedQuery),
  }));

  const remove = handle(transportEpcisQueryDelete, async ({ name }, caller) => {
    const accountId = actingUser(caller).id;
    // The query and its subscriptions go together; then their webhooks (ADR 313).
    const subscriptions = await ctx.db.transaction(async (tx) => {
      if (!(await deleteNamedQuery(tx, accountId, name))) throw notFound('Named query', name);
      return deleteSubscriptionsOf(tx, accountId, name);
    });
    for (const sub of subscriptions) await removeSubscriptionWebhook(ctx, sub.webhookId, caller);
    return { deleted: true };
  });

  return [create, get, list, remove];
}
