import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import yazl from 'yazl';

/** XMP naming where a photo was taken (IPTC location and an EXIF GPS property), as photo apps write it. */
export const LOCATION_XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" ' +
  'xmlns:exif="http://ns.adobe.com/exif/1.0/" Iptc4xmpCore:Location="Sunflower Lane 4" ' +
  'exif:GPSLatitude="52,22.0N" exif:GPSLongitude="4,54.0E"/></rdf:RDF></x:xmpmeta>';

/** A JPEG photo with camera EXIF, orientation 6 (rotated 90°), a GPS position and an XMP location. */
export async function photo(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 60, g: 140, b: 70 } } })
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: 'Rootline', Model: 'Test Camera' },
      IFD2: { DateTimeOriginal: '2026:05:01 10:00:00', ISOSpeedRatings: '200' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '52/1 22/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '4/1 54/1 0/1',
      },
    })
    .withMetadata({ orientation: 6 })
    .withXmp(LOCATION_XMP)
    .toBuffer();
}

/**
 * Whether bytes someone downloaded say where a photo was taken: any EXIF or XMP block, or the words a GPS IFD, an
 * XMP GPS property or an IPTC location leave in a file.
 */
export async function carriesLocation(bytes: Buffer): Promise<boolean> {
  const meta = await sharp(bytes).metadata();
  const text = bytes.toString('latin1');
  return Boolean(meta.exif || meta.xmp || meta.iptc) || /GPS|Sunflower Lane|Iptc4xmpCore/.test(text);
}

export function png(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c04040' } })
    .png()
    .toBuffer();
}

/**
 * A PNG whose header announces `side` × `side` pixels over a few bytes of data: a decompression bomb, refused
 * from the header before any decoding.
 */
export async function pixelBomb(side = 60_000): Promise<Buffer> {
  const buf = Buffer.from(await png(8, 8));
  // IHDR data starts at byte 16 (8 signature + 4 length + 4 type); its CRC covers type and data (bytes 12–28).
  buf.writeUInt32BE(side, 16);
  buf.writeUInt32BE(side, 20);
  buf.writeUInt32BE(crc32(buf.subarray(12, 29)), 29);
  return buf;
}

export const pdf = (): Buffer =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  );

/** The start of an OLE2 compound file (the container of Word 97 documents), padded to one sector. */
export function doc(): Buffer {
  const b = Buffer.alloc(1536);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(b);
  b.writeUInt16LE(0x003e, 24);
  b.writeUInt16LE(0x0003, 26);
  b.writeUInt16LE(0xfffe, 28);
  b.writeUInt16LE(0x0009, 30);
  return b;
}

function zip(entries: [string, Buffer][]): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, data] of entries) z.addBuffer(data, name);
  z.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

const CONTENT_TYPES = Buffer.from(
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
);
const DOCUMENT = Buffer.from(
  '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Seed certificate</w:t></w:r></w:p></w:body></w:document>',
);

export const docx = () =>
  zip([
    ['[Content_Types].xml', CONTENT_TYPES],
    ['word/document.xml', DOCUMENT],
  ]);

/** A DOCX-shaped zip with an entry that inflates 1000× (64 MB of zeros in about 64 KB). */
export const zipBombDocx = () =>
  zip([
    ['[Content_Types].xml', CONTENT_TYPES],
    ['word/document.xml', DOCUMENT],
    ['word/media/padding.bin', Buffer.alloc(64 * 1024 * 1024)],
  ]);

/** A multipart body (fields first, then the file) for `inject`. */
export async function form(
  fields: Record<string, string>,
  file?: { data: Buffer; name: string; type: string },
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const res = new Response(fd);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type') ?? '' },
  };
}
