import { AppError, LABELS_PER_PAGE, type Plant, plantGet, transparencyLabelsRender } from '@rootline/contracts';
import { plantEpc } from '@rootline/domain';
import { call, handle, publicUrlOf, type ServiceContext } from '@rootline/host';
import { pdfFonts } from '../adapters/pdf-fonts.js';
import { type LabelPlant, renderLabelsPdf } from '../domain/labels-pdf.js';

/** Plants read at once from the plants service while a sheet is made. */
const READ_CONCURRENCY = 8;

/**
 * transparency.labels.render: a PDF sheet of QR labels for the chosen plants. Plants are public records, so anyone
 * may label any plant; a label carries the plant's public facts only (never its location). Its QR code encodes the
 * plant's GS1 Digital Link URI (ADR 275) at the service's PUBLIC_URL, else the public address the request came
 * through; the gateway redirects it to the plant's public page.
 */
export const renderLabels = (ctx: ServiceContext, publicUrl: string | undefined, companyPrefix: string) =>
  handle(transparencyLabelsRender, async ({ plantIds, layout, startAt, harvestedOn, language }, caller) => {
    const perPage = LABELS_PER_PAGE[layout];
    const first = startAt ?? 1;
    if (first > perPage) {
      throw new AppError('VALIDATION_ERROR', `startAt: a ${layout} page holds ${perPage} labels`, {
        field: 'startAt',
        reason: 'label-start',
      });
    }
    const base = publicUrlOf(caller, publicUrl);
    const plants: Plant[] = new Array(plantIds.length);
    for (let i = 0; i < plantIds.length; i += READ_CONCURRENCY) {
      const ids = plantIds.slice(i, i + READ_CONCURRENCY);
      const read = await Promise.all(ids.map((plantId) => call(ctx.bus, plantGet, { plantId }, caller)));
      read.forEach((p, j) => {
        plants[i + j] = p;
      });
    }
    const labels: LabelPlant[] = plants.map((p) => ({
      id: p.id,
      commonName: p.commonName,
      scientificName: p.scientificName,
      registeredAt: p.registeredAt,
      url: plantEpc(p.id, base, companyPrefix),
    }));
    const { pdf, pages } = await renderLabelsPdf(labels, layout, {
      startAt: first,
      harvestedOn: harvestedOn ?? ctx.clock.now().toISOString().slice(0, 10),
      fonts: await pdfFonts(),
      ...(language ? { language } : {}),
    });
    return { pdf: pdf.toString('base64'), pages, labels: labels.length };
  });
