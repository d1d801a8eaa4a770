import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * The fonts of Rootline's PDFs (labels, certificates): DejaVu Sans, from the dejavu-fonts-ttf package (Bitstream Vera
 * licence), embedded and subset by pdfkit, so a name in Polish, Greek, Cyrillic or with any letter beyond Latin-1
 * prints as written. The PDF standard fonts (Helvetica, Courier) know only WinAnsi and print such letters as others.
 */
const FONT_FILES = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  mono: 'DejaVuSansMono.ttf',
  monoBold: 'DejaVuSansMono-Bold.ttf',
} as const;

/** A font's name in a document that `embedPdfFonts` prepared. */
export type PdfFont = keyof typeof FONT_FILES;

let loaded: Promise<Record<PdfFont, Buffer>> | undefined;

/** The font files, read once, on the first PDF (a process that renders none never holds them). */
export function pdfFonts(): Promise<Record<PdfFont, Buffer>> {
  loaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const entries = await Promise.all(
      Object.entries(FONT_FILES).map(
        async ([name, file]) => [name, await readFile(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))] as const,
      ),
    );
    return Object.fromEntries(entries) as Record<PdfFont, Buffer>;
  })().catch((err: unknown) => {
    loaded = undefined;
    throw err;
  });
  return loaded;
}

/** Registers the fonts in a document under their `PdfFont` names; pdfkit embeds only the glyphs used. */
export function embedPdfFonts(doc: PDFKit.PDFDocument, files: Record<PdfFont, Buffer>): void {
  for (const [name, file] of Object.entries(files)) doc.registerFont(name, file);
}
