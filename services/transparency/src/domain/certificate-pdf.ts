import type { Locale } from '@rootline/contracts/auth';
import type { SignedCertificate } from '@rootline/contracts/transparency-certificates';
import { CERTIFICATE_WORDS, certificateDate, certificateNumber } from './certificate-words.js';
import { embedPdfFonts, type PdfFontFiles } from './pdf-fonts.js';

/** Breaks a long hex or base64 value into lines that fit the page. */
const wrap = (value: string, width = 64) => value.match(new RegExp(`.{1,${width}}`, 'g'))?.join('\n') ?? value;

/** The name of the signed JSON embedded in the PDF. */
export const CERTIFICATE_ATTACHMENT = 'certificate.json';

/**
 * The certificate as a one-page A4 PDF: what it states, the proofs' anchors, the signature, and a QR code that
 * opens the public verification page. The signed JSON is embedded as the attachment `certificate.json` (a PDF
 * embedded file), so the PDF alone can be verified (`rootline-verify certificate file.pdf`). Its words, dates and
 * numbers are in `language` (ADR 256); what is signed, the JSON, is the same in every language.
 */
export async function renderCertificatePdf(
  signed: SignedCertificate,
  fonts: PdfFontFiles,
  language: Locale = 'en',
): Promise<Buffer> {
  const w = CERTIFICATE_WORDS[language];
  const date = (iso: string) => certificateDate(iso, language);
  const num = (n: number) => certificateNumber(n, language);
  // Loaded on the first PDF: pdfkit and its font modules are some 2 MiB of source and more of heap, which a
  // process that never renders a certificate should not hold (docs/perf/startup.md).
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([import('pdfkit'), import('qrcode')]);
  const { certificate: c, signature } = signed;
  const qr = await QRCode.toBuffer(c.verificationUrl, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 1,
    width: 240,
  });
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    lang: language,
    info: { Title: `${w.title} ${c.plant.id}`, Author: 'Rootline', Subject: c.plant.commonName },
  });
  doc.file(Buffer.from(JSON.stringify(signed), 'utf8'), {
    name: CERTIFICATE_ATTACHMENT,
    type: 'application/json',
    description: w.attachment,
  });
  embedPdfFonts(doc, fonts);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(20).text(w.title);
  doc
    .moveDown(0.3)
    .font('regular')
    .fontSize(10)
    .fillColor('#444')
    .text(w.issued(date(c.issuedAt)));
  doc.image(qr, 425, 45, { width: 120 });
  doc.fillColor('black').moveDown(1.2);

  const field = (label: string, value: string) => {
    doc.font('bold').fontSize(10).text(`${label}${w.colon}`, { continued: true });
    doc.font('regular').text(value);
  };
  const heading = (text: string) => doc.moveDown(0.8).font('bold').fontSize(13).text(text).moveDown(0.2);

  const f = w.fields;
  heading(w.headings.plant);
  field(f.plantId, c.plant.id);
  field(f.commonName, c.plant.commonName);
  if (c.plant.scientificName) field(f.scientificName, c.plant.scientificName);
  field(f.registered, date(c.plant.registeredAt));
  field(f.generation, num(c.plant.generation));
  if (c.plant.parentId) {
    const how = c.plant.propagationType ? w.propagation[c.plant.propagationType] : w.unknownPropagation;
    field(f.parent, `${c.plant.parentId} (${how})`);
  }
  const where = c.plant.location;
  field(
    f.location,
    where
      ? [where.city, where.country].filter(Boolean).join(', ') || `${where.latitude}, ${where.longitude}`
      : w.hidden,
  );
  field(f.privacy, w.privacy[c.plant.privacyLevel]);

  heading(w.headings.lineage);
  field(f.ancestors, num(c.lineage.ancestors));
  if (c.lineage.rootId) field(f.root, c.lineage.rootId);
  field(f.offspring, num(c.lineage.children));

  heading(w.headings.ledger);
  field(f.block, `#${c.block.index}`);
  doc.font('mono').fontSize(8).text(`hash        ${c.block.hash}\nmerkle root ${c.block.merkleRoot}`);
  field(f.transaction, `${c.ledgerProof.txId} (${w.leaf(num(c.ledgerProof.leafIndex), num(c.ledgerProof.treeSize))})`);

  heading(w.headings.audit);
  if (c.auditLog) {
    field(f.entry, w.entryOf(String(c.auditLog.index), num(c.auditLog.treeSize)));
    doc.font('mono').fontSize(8).text(`root hash   ${c.auditLog.rootHash}`);
  } else {
    doc.font('regular').fontSize(10).text(w.notRecorded);
  }

  heading(w.headings.signature);
  field(f.algorithm, w.algorithm(signature.algorithm));
  doc
    .font('mono')
    .fontSize(8)
    .text(`key id      ${signature.keyId}\n${wrap(signature.value, 88)}`);
  doc
    .moveDown(1)
    .font('regular')
    .fontSize(9)
    .fillColor('#444')
    .text(
      w.verify(c.verificationUrl, `/api/transparency/certificate/${c.plant.id}`, '/api/transparency/audit/public-key'),
    );
  doc.end();
  return done;
}
