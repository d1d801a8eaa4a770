/**
 * The fonts of Rootline's PDFs (labels, certificates) by name: DejaVu Sans and DejaVu Sans Mono, read by
 * `adapters/pdf-fonts.ts` and handed to the renderers, so a name in Polish, Greek, Cyrillic or with any letter beyond
 * Latin-1 prints as written (the PDF standard fonts know only WinAnsi).
 */
export type PdfFont = 'regular' | 'bold' | 'italic' | 'mono' | 'monoBold';

/** Each font's TrueType file. */
export type PdfFontFiles = Record<PdfFont, Buffer>;

/** Registers the fonts in a document under their `PdfFont` names; pdfkit embeds only the glyphs used. */
export function embedPdfFonts(doc: PDFKit.PDFDocument, files: PdfFontFiles): void {
  for (const [name, file] of Object.entries(files)) doc.registerFont(name, file);
}
