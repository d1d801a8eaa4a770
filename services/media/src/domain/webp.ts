/** VP8X flag bits of the metadata chunks a WebP announces (RIFF WebP container, section "Extended File Format"). */
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;
/** Chunks that say where and by what a photo was taken: EXIF (with its GPS IFD) and XMP (with IPTC location). */
const METADATA_CHUNKS = new Set(['EXIF', 'XMP ']);

/**
 * The WebP `webp` without its EXIF and XMP chunks, pixels untouched (no re-encoding): the chunks are dropped, the
 * VP8X flags that announce them cleared and the RIFF size written anew. Anything that is not a well-formed WebP is
 * refused with an Error rather than passed on, so a copy is never served half-stripped.
 */
export function stripWebpMetadata(webp: Buffer): Buffer {
  if (webp.length < 12 || webp.toString('latin1', 0, 4) !== 'RIFF' || webp.toString('latin1', 8, 12) !== 'WEBP') {
    throw new Error('not a WebP file');
  }
  const end = Math.min(webp.length, 8 + webp.readUInt32LE(4));
  const kept: Buffer[] = [];
  let at = 12;
  while (at < end) {
    if (at + 8 > end) throw new Error('truncated WebP chunk header');
    const fourCC = webp.toString('latin1', at, at + 4);
    const size = webp.readUInt32LE(at + 4);
    const next = at + 8 + size + (size % 2);
    if (at + 8 + size > end) throw new Error(`truncated WebP chunk ${fourCC}`);
    if (!METADATA_CHUNKS.has(fourCC)) {
      const chunk = Buffer.from(webp.subarray(at, Math.min(next, end)));
      if (fourCC === 'VP8X' && size > 0) chunk[8] = (chunk[8] as number) & ~(VP8X_EXIF | VP8X_XMP);
      kept.push(chunk);
    }
    at = next;
  }
  const body = Buffer.concat(kept);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + body.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}

/** Whether a WebP carries an EXIF or XMP chunk. */
export function hasWebpMetadata(webp: Buffer): boolean {
  return stripWebpMetadata(webp).length !== webp.length;
}
