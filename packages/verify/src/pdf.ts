import { inflateSync } from 'node:zlib';

/**
 * The embedded files of a PDF (ISO 32000 §7.11.4): each stream whose dictionary says `/Type /EmbeddedFile`, inflated
 * when its filter is FlateDecode. Enough for PDFs that keep their objects uncompressed at the top level, as the
 * platform's certificates do; a PDF with object streams is refused by finding nothing.
 */
export function embeddedFiles(pdf: Buffer): Buffer[] {
  const text = pdf.toString('latin1');
  const out: Buffer[] = [];
  const marker = /\/Type\s*\/EmbeddedFile\b/g;
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    const dictStart = text.lastIndexOf('obj', m.index);
    const streamAt = text.indexOf('stream', m.index);
    if (dictStart < 0 || streamAt < 0) continue;
    const dict = text.slice(dictStart, streamAt);
    const length = /\/Length\s+(\d+)/.exec(dict);
    if (!length) continue;
    let start = streamAt + 'stream'.length;
    if (text[start] === '\r') start++;
    if (text[start] === '\n') start++;
    const body = pdf.subarray(start, start + Number(length[1]));
    out.push(/\/Filter\s*\/FlateDecode/.test(dict) ? inflateSync(body) : Buffer.from(body));
  }
  return out;
}

/** The signed certificate JSON a certificate PDF embeds. */
export function certificateFromPdf(pdf: Buffer): unknown {
  for (const file of embeddedFiles(pdf)) {
    try {
      const json = JSON.parse(file.toString('utf8')) as { certificate?: unknown; signature?: unknown };
      if (json.certificate && json.signature) return json;
    } catch {
      // Another attachment: keep looking.
    }
  }
  throw new Error('the PDF embeds no signed certificate');
}
