import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PdfFont, PdfFontFiles } from '../domain/pdf-fonts.js';

/**
 * The fonts of Rootline's PDFs (labels, certificates): DejaVu Sans, from the dejavu-fonts-ttf package (Bitstream Vera
 * licence), embedded and subset by pdfkit, so a name in Polish, Greek, Cyrillic or with any letter beyond Latin-1
 * prints as written. The PDF standard fonts (Helvetica, Courier) know only WinAnsi and print such letters as others.
 */
const FONT_FILES: Record<PdfFont, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  mono: 'DejaVuSansMono.ttf',
  monoBold: 'DejaVuSansMono-Bold.ttf',
};

let loaded: Promise<PdfFontFiles> | undefined;

/** The font files, read once, on the first PDF (a process that renders none never holds them). */
export function pdfFonts(): Promise<PdfFontFiles> {
  loaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const entries = await Promise.all(
      Object.entries(FONT_FILES).map(
        async ([name, file]) => [name, await readFile(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))] as const,
      ),
    );
    return Object.fromEntries(entries) as PdfFontFiles;
  })().catch((err: unknown) => {
    loaded = undefined;
    throw err;
  });
  return loaded;
}
