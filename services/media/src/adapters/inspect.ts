import { open } from 'node:fs/promises';
import type { FileKind, MediaType } from '@rootline/contracts';
import type yauzl from 'yauzl';
import { checkDocxEntries, OOXML_LIMITS, type ZipEntry } from '../domain/ooxml.js';
import { decideType, mediaTypeOf, refused } from '../domain/types.js';

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function startsWithZip(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await fh.read(head, 0, 4, 0);
    return head.equals(ZIP_MAGIC);
  } finally {
    await fh.close();
  }
}

/** The entries of a zip's central directory (one more than the limit at most); nothing is inflated. */
async function zipEntries(file: string): Promise<ZipEntry[]> {
  // Loaded by the first upload that needs it (like file-type below), not when the platform starts.
  const { default: yauzl } = await import('yauzl');
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return reject(refused('The zip archive is corrupt', 'corrupt'));
      const entries: ZipEntry[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        entries.push({ name: e.fileName, compressedSize: e.compressedSize, uncompressedSize: e.uncompressedSize });
        if (entries.length > OOXML_LIMITS.maxEntries) {
          zip.close();
          resolve(entries);
        } else zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', () => reject(refused('The zip archive is corrupt', 'corrupt')));
      zip.readEntry();
    });
  });
}

/**
 * The media type of a file on disk, from its bytes only. A zip is examined from its central directory before
 * anything else reads it (file-type would inflate entries to name it), so a zip bomb is refused unopened.
 */
export async function detectType(file: string, kind: FileKind): Promise<MediaType> {
  if (await startsWithZip(file)) {
    if (kind !== 'document') return decideType(kind, 'application/zip');
    checkDocxEntries(await zipEntries(file));
    return DOCX;
  }
  const { fileTypeFromFile } = await import('file-type');
  return decideType(kind, mediaTypeOf(await fileTypeFromFile(file)));
}
