import { AppError, eventHistory, MAX_KIND_FILTER, paginate } from '@rootline/contracts';
import { handle, type ServiceContext } from '@rootline/host';
import { listPublicEvents } from '../db/public-events.repo.js';

/** transparency.event.list: the history of public events, oldest first, by kind and after a seq. */
export const listEventHistory = (ctx: ServiceContext) =>
  handle(eventHistory, async (input, caller) => {
    const kinds = input.kind ? [...new Set(input.kind.split(','))] : undefined;
    if (kinds && kinds.length > MAX_KIND_FILTER) {
      throw new AppError('VALIDATION_ERROR', `kind: at most ${MAX_KIND_FILTER} kinds`, {
        field: 'kind',
        reason: 'too-many-kinds',
      });
    }
    const { page, limit } = input;
    const { items, total, latestSeq } = await ctx.reads.run(caller, (db) =>
      listPublicEvents(db, { after: input.after, kinds, page, limit }),
    );
    return { items, pagination: paginate(page, limit, total), latestSeq };
  });
