import type { SignedCertificate } from '@rootline/contracts/transparency-certificates';
import { embedPdfFonts, type PdfFontFiles } from './pdf-fonts.js';

/** Breaks a long hex or base64 value into lines that fit the page. */
const wrap = (value: string, width = 64) => value.match(new RegExp(`.{1,${width}}`, 'g'))?.join('\n') ?? value;

/** The name of the signed JSON embedded in the PDF. */
export const CERTIFICATE_ATTACHMENT = 'certificate.json';

/**
 * The certificate as a one-page A4 PDF: what it states, the proofs' anchors, the signature, and a QR code that
 * opens the public verification page. The signed JSON is embedded as the attachment `certificate.json` (a PDF
 * embedded file), so the PDF alone can be verified (`rootline-verify certificate file.pdf`).
 */
export async function renderCertificatePdf(signed: SignedCertificate, fonts: PdfFontFiles): Promise<Buffer> {
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
    info: { Title: `Certificate of authenticity ${c.plant.id}`, Author: 'Rootline', Subject: c.plant.commonName },
  });
  doc.file(Buffer.from(JSON.stringify(signed), 'utf8'), {
    name: CERTIFICATE_ATTACHMENT,
    type: 'application/json',
    description: 'The signed certificate, to verify',
  });
  embedPdfFonts(doc, fonts);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(20).text('Certificate of authenticity');
  doc.moveDown(0.3).font('regular').fontSize(10).fillColor('#444').text(`Issued ${c.issuedAt} by Rootline`);
  doc.image(qr, 425, 45, { width: 120 });
  doc.fillColor('black').moveDown(1.2);

  const field = (label: string, value: string) => {
    doc.font('bold').fontSize(10).text(`${label}: `, { continued: true });
    doc.font('regular').text(value);
  };
  const heading = (text: string) => doc.moveDown(0.8).font('bold').fontSize(13).text(text).moveDown(0.2);

  heading('Plant');
  field('Plant id', c.plant.id);
  field('Common name', c.plant.commonName);
  if (c.plant.scientificName) field('Scientific name', c.plant.scientificName);
  field('Registered', c.plant.registeredAt);
  field('Generation', String(c.plant.generation));
  if (c.plant.parentId) field('Parent', `${c.plant.parentId} (${c.plant.propagationType ?? 'unknown'})`);
  const where = c.plant.location;
  field(
    'Location',
    where
      ? [where.city, where.country].filter(Boolean).join(', ') || `${where.latitude}, ${where.longitude}`
      : 'hidden',
  );
  field('Privacy level', c.plant.privacyLevel);

  heading('Lineage');
  field('Ancestors', String(c.lineage.ancestors));
  if (c.lineage.rootId) field('Root plant', c.lineage.rootId);
  field('Direct offspring', String(c.lineage.children));

  heading('Ledger');
  field('Block', `#${c.block.index}`);
  doc.font('mono').fontSize(8).text(`hash        ${c.block.hash}\nmerkle root ${c.block.merkleRoot}`);
  field('Transaction', `${c.ledgerProof.txId} (leaf ${c.ledgerProof.leafIndex} of ${c.ledgerProof.treeSize})`);

  heading('Audit log');
  if (c.auditLog) {
    field('Entry', `#${c.auditLog.index} of ${c.auditLog.treeSize}`);
    doc.font('mono').fontSize(8).text(`root hash   ${c.auditLog.rootHash}`);
  } else {
    doc.font('regular').fontSize(10).text('Not yet recorded when this certificate was issued.');
  }

  heading('Signature');
  field('Algorithm', `${signature.algorithm} over the RFC 8785 canonical JSON of the certificate`);
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
      `Verify: scan the code or open ${c.verificationUrl}. The signed JSON is at ` +
        `/api/transparency/certificate/${c.plant.id}; the public key at /api/transparency/audit/public-key.`,
    );
  doc.end();
  return done;
}
