import type { EventDef, PayloadOf } from '@rootline/contracts';
import { transferAccepted, transferCancelled, transferDeclined, transferProposed } from '@rootline/contracts/transfers';
import { type ServiceContext, subscribe } from '@rootline/host';
import type { TransferChange } from '../domain/messages.js';
import { publishLive, recordNotices } from './dispatch.js';

type TransferPayload = PayloadOf<typeof transferProposed>;

/**
 * A step of an ownership transfer: the other side (the event's `audience`: the recipient person, or the owners and
 * managers of the receiving organization for a proposal; the giving side for an answer) gets a notice of type
 * `transfer` on the channels their preferences allow, in their language; whoever acted is not told of it.
 */
function onTransfer<E extends EventDef>(ctx: ServiceContext, def: E, durable: string, change: TransferChange) {
  return subscribe(def, durable, async (payload, meta) => {
    const p = payload as unknown as TransferPayload;
    const readers = [...new Set(p.audience)].filter((id) => id !== meta.actor?.id);
    if (readers.length === 0) return;
    const notices = await recordNotices(
      ctx,
      meta.tx,
      readers.map((userId) => ({
        sourceId: meta.eventId,
        userId,
        template: {
          name: 'transfer' as const,
          params: {
            transferId: p.transferId,
            change,
            subjectType: p.subjectType,
            subjectId: p.subjectId,
            subjectName: p.subjectName,
            fromName: p.fromName,
            toName: p.toName,
          },
        },
        data: { transferId: p.transferId, subjectType: p.subjectType, subjectId: p.subjectId },
        publicUrl: meta.publicUrl,
      })),
    );
    meta.afterCommit(() => {
      for (const n of notices) if (n) void publishLive(ctx, n);
    });
  });
}

export const onTransferChanged = (ctx: ServiceContext) => [
  onTransfer(ctx, transferProposed, 'transfer-proposed', 'proposed'),
  onTransfer(ctx, transferAccepted, 'transfer-accepted', 'accepted'),
  onTransfer(ctx, transferDeclined, 'transfer-declined', 'declined'),
  onTransfer(ctx, transferCancelled, 'transfer-cancelled', 'cancelled'),
];
