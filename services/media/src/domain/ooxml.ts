import { refused } from './types.js';

/** One entry of a zip's central directory, as announced (nothing is inflated to read it). */
export interface ZipEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
}

/** Bounds that refuse zip bombs from the directory alone. */
export const OOXML_LIMITS = {
  maxEntries: 2000,
  /** Sum of the announced uncompressed sizes. */
  maxTotalUncompressed: 200 * 1024 * 1024,
  /** Compression ratio beyond which a large entry is a bomb (XML compresses about 5–20×). */
  maxRatio: 100,
  /** Entries below this size are not held to the ratio (tiny files compress oddly). */
  ratioFloorBytes: 1024 * 1024,
} as const;

/**
 * Checks that a zip's entries make a Word document (OOXML: `[Content_Types].xml` and `word/document.xml`) and
 * that its announced sizes are not a bomb. Throws VALIDATION_ERROR with the reason.
 */
export function checkDocxEntries(entries: readonly ZipEntry[], limits = OOXML_LIMITS): void {
  if (entries.length > limits.maxEntries) {
    throw refused(`The DOCX has ${entries.length} entries, more than ${limits.maxEntries}`, 'zip-bomb');
  }
  let total = 0;
  for (const e of entries) {
    if (e.name.includes('..') || e.name.startsWith('/')) throw refused('The DOCX has an unsafe entry name', 'zip-path');
    total += e.uncompressedSize;
    const ratio = e.uncompressedSize / Math.max(1, e.compressedSize);
    if (e.uncompressedSize >= limits.ratioFloorBytes && ratio > limits.maxRatio) {
      throw refused(
        `The DOCX entry ${e.name} expands ${Math.round(ratio)}× (limit ${limits.maxRatio}×): a zip bomb`,
        'zip-bomb',
        { entry: e.name, ratio: Math.round(ratio) },
      );
    }
  }
  if (total > limits.maxTotalUncompressed) {
    throw refused(`The DOCX expands to ${total} bytes, more than ${limits.maxTotalUncompressed}`, 'zip-bomb');
  }
  const names = new Set(entries.map((e) => e.name));
  if (!names.has('[Content_Types].xml') || !names.has('word/document.xml')) {
    throw refused('The zip is not a Word document: [Content_Types].xml and word/document.xml are required', 'type', {
      detected: 'application/zip',
    });
  }
}
