import {
  type CallContext,
  certificateRevocationsGet,
  chainBlockVerify,
  isAppError,
  plantGet,
  plantLineageGet,
  transportPageRender,
  transportQrGet,
} from '@rootline/contracts';
import { plantEpc } from '@rootline/domain';
import { call, handle, notFound, publicUrlOf, type ServiceContext } from '@rootline/host';
import { type EventRow, journeyRows, seedLotRows, toStoredEvent } from '../db/events.repo.js';
import { journeyTotals, linkCorrections } from '../domain/journey.js';
import { type PageData, renderPage } from '../domain/page.js';
import { PROBLEMS } from './verify.js';

/** The public verification page of a plant or seed lot. */
export function pageUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/$/, '')}/api/transport/trace/${id}`;
}

const isPlant = (id: string) => id.startsWith('plt_');

/** The QR encoder (some 60 modules with its PNG writer) is loaded by the first code asked for, not at start. */
const loadQrcode = () => import('qrcode').then((m) => m.default);
let qrcode: ReturnType<typeof loadQrcode> | undefined;
function qrEncoder() {
  qrcode ??= loadQrcode();
  return qrcode;
}

/** A journey's events as the public sees them: notes are private to the events' parties, never shown here. */
const publicEvents = (rows: readonly EventRow[]) =>
  linkCorrections(rows.map(toStoredEvent)).map((e) => ({ ...e, notes: null }));

/** Checks that the id names a plant (asked of the plants service) or a seed lot with events. */
async function assertKnown(ctx: ServiceContext, id: string, caller: CallContext): Promise<void> {
  if (isPlant(id)) {
    await call(ctx.bus, plantGet, { plantId: id }, caller);
    return;
  }
  if ((await seedLotRows(ctx.db, id)).length === 0) throw notFound('Seed lot', id);
}

/**
 * transport.qr.get: the verification URL, the payload encoded, and the code as PNG (base64) or SVG. Both start with
 * the service's PUBLIC_URL, else the public address the request came through. A plant's code encodes its GS1
 * Digital Link URI (`<address>/8004/<GIAI>`, ADR 275), which redirects to the verification page; a seed lot's, the
 * page itself.
 */
export const getQr = (ctx: ServiceContext, publicUrl: string | undefined, companyPrefix: string) =>
  handle(transportQrGet, async ({ id, format }, caller) => {
    await assertKnown(ctx, id, caller);
    const base = publicUrlOf(caller, publicUrl);
    const url = pageUrl(base, id);
    const payload = isPlant(id) ? plantEpc(id, base, companyPrefix) : url;
    const common = { id, subject: isPlant(id) ? ('plant' as const) : ('seed-lot' as const), url, payload, format };
    const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
    if (format === 'png') {
      const QRCode = await qrEncoder();
      const png = await QRCode.toBuffer(payload, { ...options, type: 'png', width: 320 });
      return { ...common, contentType: 'image/png', body: png.toString('base64') };
    }
    if (format === 'svg') {
      const QRCode = await qrEncoder();
      return {
        ...common,
        contentType: 'image/svg+xml',
        body: await QRCode.toString(payload, { ...options, type: 'svg' }),
      };
    }
    return { ...common, contentType: 'application/json', body: null };
  });

/** The ledger's verdict for each block, through `chain.block.verify`. */
async function verdicts(ctx: ServiceContext, hashes: string[], caller: CallContext): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  await Promise.all(
    [...new Set(hashes)].map(async (hash) => {
      try {
        const v = await call(ctx.bus, chainBlockVerify, { hash }, caller);
        out.set(
          hash,
          v.problems.map((code) => `${PROBLEMS[code].reason} (${code})`),
        );
      } catch (err) {
        if (isAppError(err) && err.code === 'NOT_FOUND') out.set(hash, ['block not on the ledger']);
        else throw err;
      }
    }),
  );
  return out;
}

/** The plant's revoked certificates from the platform's signed list; null when the list cannot be read now. */
async function revocationsOf(ctx: ServiceContext, plantId: string, caller: CallContext) {
  try {
    const { list } = await call(ctx.bus, certificateRevocationsGet, {}, caller, 2000);
    return list.revocations.filter((r) => r.plantId === plantId);
  } catch (err) {
    ctx.log.warn({ err }, 'trace page: the revocation list could not be read');
    return null;
  }
}

/** transport.page.render: the public page (plant, lineage summary, journey, verdict of each block) as HTML. */
export const renderTracePage = (ctx: ServiceContext) =>
  handle(transportPageRender, async ({ id }, caller) => {
    let data: Omit<PageData, 'verdicts'>;
    if (isPlant(id)) {
      const [plant, rows] = await Promise.all([
        call(ctx.bus, plantGet, { plantId: id }, caller),
        journeyRows(ctx.db, id),
      ]);
      const lineage = await call(
        ctx.bus,
        plantLineageGet,
        { plantId: id, pedigreeDepth: 1000, progenyDepth: 1 },
        caller,
      );
      const events = publicEvents(rows);
      data = {
        revocations: await revocationsOf(ctx, id, caller),
        id,
        plant: { ...plant, blockHash: plant.block.hash },
        lineage: {
          ancestors: lineage.ancestors.length,
          rootId: lineage.ancestors.at(-1)?.id ?? null,
          offspring: lineage.descendants.length,
        },
        events,
        totals: journeyTotals(events),
      };
    } else {
      const rows = await seedLotRows(ctx.db, id);
      if (rows.length === 0) throw notFound('Seed lot', id);
      const events = publicEvents(rows);
      data = { id, plant: null, lineage: null, events, totals: journeyTotals(events) };
    }
    const hashes = [...(data.plant ? [data.plant.blockHash] : []), ...data.events.map((e) => e.blockHash)];
    return { html: renderPage({ ...data, verdicts: await verdicts(ctx, hashes, caller) }) };
  });
