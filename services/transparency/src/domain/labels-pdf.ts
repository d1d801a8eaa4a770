import type { Locale } from '@rootline/contracts/auth';
import type { LabelLayout } from '@rootline/contracts/transparency-labels';
import { embedPdfFonts, type PdfFont, type PdfFontFiles } from './pdf-fonts.js';

/** What one label says. Never a location: a label is stuck on a pot anyone can read (docs/transparency.md). */
export interface LabelPlant {
  id: string;
  commonName: string;
  scientificName: string | null;
  registeredAt: string;
  /** The plant's public page, which the QR code opens. */
  url: string;
}

/** A sheet's geometry in PDF points (1/72 inch): page size, first label's corner, label size and pitch. */
export interface SheetGeometry {
  size: [number, number];
  columns: number;
  rows: number;
  left: number;
  top: number;
  width: number;
  height: number;
  pitchX: number;
  pitchY: number;
}

const MM = 72 / 25.4;
const A4: [number, number] = [210 * MM, 297 * MM];
const LETTER: [number, number] = [612, 792];

/**
 * The sheets: A4 3 × 8 is the 70 × 37 mm label sheet cut edge to edge; US Letter 3 × 10 is the 2⅝ × 1 inch
 * address-label sheet (½ inch top margin, 3/16 inch side margin, ⅛ inch between columns); seed-packet is A4 in
 * 2 × 4 labels of 105 × 74 mm.
 */
export const SHEETS: Record<LabelLayout, SheetGeometry> = {
  'a4-3x8': {
    size: A4,
    columns: 3,
    rows: 8,
    left: 0,
    top: 0,
    width: A4[0] / 3,
    height: A4[1] / 8,
    pitchX: A4[0] / 3,
    pitchY: A4[1] / 8,
  },
  'letter-3x10': {
    size: LETTER,
    columns: 3,
    rows: 10,
    left: 13.5,
    top: 36,
    width: 189,
    height: 72,
    pitchX: 198,
    pitchY: 72,
  },
  'seed-packet': {
    size: A4,
    columns: 2,
    rows: 4,
    left: 0,
    top: 0,
    width: A4[0] / 2,
    height: A4[1] / 4,
    pitchX: A4[0] / 2,
    pitchY: A4[1] / 4,
  },
};

/** Where each label goes: its page (0-based) and its top-left corner, starting at position `startAt` (1-based). */
export function labelSlots(layout: LabelLayout, count: number, startAt = 1): { page: number; x: number; y: number }[] {
  const g = SHEETS[layout];
  const perPage = g.columns * g.rows;
  return Array.from({ length: count }, (_, i) => {
    const n = i + startAt - 1;
    const cell = n % perPage;
    return {
      page: Math.floor(n / perPage),
      x: g.left + (cell % g.columns) * g.pitchX,
      y: g.top + Math.floor(cell / g.columns) * g.pitchY,
    };
  });
}

/** The words a seed packet prints beside the plant's own, in each language of the app. */
export const SEED_PACKET_WORDS: Record<
  Locale,
  { seeds: string; noVariety: string; savedFrom: string; plant: string; harvested: string; scan: string }
> = {
  en: {
    seeds: 'Seeds',
    noVariety: 'Variety not recorded',
    savedFrom: 'Saved from',
    plant: 'Plant',
    harvested: 'Harvested',
    scan: 'Scan for the plant’s story and lineage',
  },
  nl: {
    seeds: 'Zaden',
    noVariety: 'Ras niet vastgelegd',
    savedFrom: 'Gewonnen van',
    plant: 'Plant',
    harvested: 'Geoogst',
    scan: 'Scan voor het verhaal en de afstamming van de plant',
  },
  de: {
    seeds: 'Saatgut',
    noVariety: 'Sorte nicht erfasst',
    savedFrom: 'Gewonnen von',
    plant: 'Pflanze',
    harvested: 'Geerntet',
    scan: 'Scannen für Geschichte und Abstammung der Pflanze',
  },
  fr: {
    seeds: 'Semences',
    noVariety: 'Variété non enregistrée',
    savedFrom: 'Récoltées sur',
    plant: 'Plante',
    harvested: 'Récolte',
    scan: 'Scannez pour l’histoire et la lignée de la plante',
  },
  es: {
    seeds: 'Semillas',
    noVariety: 'Variedad no registrada',
    savedFrom: 'Obtenidas de',
    plant: 'Planta',
    harvested: 'Cosechadas',
    scan: 'Escanea para ver la historia y el linaje de la planta',
  },
};

/** The short id printed on a label: the last 8 characters of the plant's id, which are random. */
export const shortId = (plantId: string) => plantId.slice(-8).toUpperCase();

type Doc = PDFKit.PDFDocument;

/** Draws a QR code as vector squares (one rectangle per run of dark modules): sharp at any print size, small. */
function drawQr(
  doc: Doc,
  modules: { size: number; get(r: number, c: number): number },
  x: number,
  y: number,
  side: number,
) {
  const n = modules.size;
  const m = side / n;
  for (let r = 0; r < n; r++) {
    let c = 0;
    while (c < n) {
      if (!modules.get(r, c)) {
        c++;
        continue;
      }
      const start = c;
      while (c < n && modules.get(r, c)) c++;
      doc.rect(x + start * m, y + r * m, (c - start) * m, m);
    }
  }
  doc.fillColor('black').fill();
}

/**
 * A PDF of labels, one per plant, in the layout's grid from position `startAt`: a QR code opening the plant's
 * public page, its name, its registration date and its short id; a seed-packet label names the crop, the variety,
 * the plant the seed was saved from and the harvest date.
 */
export async function renderLabelsPdf(
  plants: LabelPlant[],
  layout: LabelLayout,
  options: { startAt?: number; harvestedOn: string; language?: Locale; fonts: PdfFontFiles },
): Promise<{ pdf: Buffer; pages: number }> {
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([import('pdfkit'), import('qrcode')]);
  const g = SHEETS[layout];
  const slots = labelSlots(layout, plants.length, options.startAt ?? 1);
  const doc = new PDFDocument({
    size: g.size,
    margin: 0,
    autoFirstPage: false,
    info: { Title: `Rootline plant labels (${layout})`, Author: 'Rootline' },
  });
  embedPdfFonts(doc, options.fonts);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  let page = -1;
  plants.forEach((plant, i) => {
    const slot = slots[i] as { page: number; x: number; y: number };
    while (page < slot.page) {
      doc.addPage({ size: g.size, margin: 0 });
      page++;
    }
    const qr = QRCode.create(plant.url, { errorCorrectionLevel: 'M' });
    const pad = layout === 'seed-packet' ? 14 : 8;
    const side = layout === 'seed-packet' ? Math.min(g.height - 2 * pad, 120) : g.height - 2 * pad;
    const qrX = layout === 'seed-packet' ? slot.x + g.width - pad - side : slot.x + pad;
    drawQr(doc, qr.modules, qrX, slot.y + pad, side);
    /** Writes up to `lines` lines (cut with an ellipsis) and answers where the text ended. */
    const text = (value: string, x: number, y: number, width: number, font: PdfFont, size: number, lines = 1) => {
      doc.font(font).fontSize(size).fillColor('black');
      doc.text(value, x, y, {
        width,
        height: size * 1.2 * lines,
        ellipsis: true,
        lineGap: 0,
        ...(lines === 1 ? { lineBreak: false } : {}),
      });
      return lines === 1 ? y + size * 1.2 : doc.y;
    };
    const date = plant.registeredAt.slice(0, 10);
    const id = shortId(plant.id);
    if (layout === 'seed-packet') {
      const x = slot.x + pad;
      const w = g.width - 3 * pad - side;
      let y = slot.y + pad;
      const line = (value: string, font: PdfFont, size: number, gap = 4, lines = 1) => {
        y = text(value, x, y, w, font, size, lines) + gap;
      };
      const words = SEED_PACKET_WORDS[options.language ?? 'en'];
      line(words.seeds, 'regular', 9);
      line(plant.commonName, 'bold', 14, 2, 2);
      line(plant.scientificName ?? words.noVariety, 'italic', 10, 10);
      line(`${words.savedFrom}: ${plant.commonName}`, 'regular', 9);
      line(`${words.plant} #${id}`, 'monoBold', 9);
      line(`${words.harvested}: ${options.harvestedOn}`, 'regular', 9, 10);
      line(words.scan, 'regular', 7);
    } else {
      const x = qrX + side + 6;
      const w = slot.x + g.width - pad - x;
      const top = slot.y + pad;
      const big = layout === 'a4-3x8' ? 11 : 10;
      const below = text(plant.commonName, x, top, w, 'bold', big, 2);
      if (plant.scientificName) text(plant.scientificName, x, below + 1, w, 'italic', 7.5);
      text(date, x, slot.y + g.height - pad - 2 * 8.5, w, 'regular', 7.5);
      text(`#${id}`, x, slot.y + g.height - pad - 8.5, w, 'monoBold', 7.5);
    }
  });
  doc.end();
  return { pdf: await done, pages: page + 1 };
}
