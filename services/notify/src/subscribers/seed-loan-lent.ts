import { seedLoanLent } from '@rootline/contracts/seed-loans';
import { type ServiceContext, subscribe } from '@rootline/host';
import { publishLive, recordNotices } from './dispatch.js';

/**
 * Seed was lent (ADR 296): the borrower (the event's `audience`) gets a notice of type `transfer` on the channels
 * their preferences allow, in their language, with a link to the loans page; whoever lent is not told of it.
 */
export const onSeedLoanLent = (ctx: ServiceContext) =>
  subscribe(seedLoanLent, 'seed-loan-lent', async (p, meta) => {
    const readers = [...new Set(p.audience)].filter((id) => id !== meta.actor?.id);
    if (readers.length === 0) return;
    const lotName = p.variety ? `${p.crop} ‘${p.variety}’` : p.crop;
    const notices = await recordNotices(
      ctx,
      meta.tx,
      readers.map((userId) => ({
        sourceId: meta.eventId,
        userId,
        template: {
          name: 'seed-loan' as const,
          params: {
            loanId: p.loanId,
            lotName,
            lenderName: p.lenderName,
            amount: p.amount,
            unit: p.unit,
            dueSeason: p.dueSeason,
          },
        },
        data: { loanId: p.loanId, seedLotId: p.seedLotId },
        publicUrl: meta.publicUrl,
      })),
    );
    meta.afterCommit(() => {
      for (const n of notices) if (n) void publishLive(ctx, n);
    });
  });
