import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hasWebpMetadata, stripWebpMetadata } from './webp.js';

const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="52,22.0N"/></rdf:RDF></x:xmpmeta>';

/** A WebP that kept its EXIF (with a GPS IFD) and XMP, as copies were written before they were always stripped. */
async function webpWithLocation(): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#408040' } })
    .jpeg()
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1' } })
    .withXmp(XMP)
    .toBuffer();
  return sharp(jpeg).keepMetadata().webp({ quality: 82 }).toBuffer();
}

describe('stripWebpMetadata', () => {
  it('drops EXIF and XMP and keeps the pixels as they were', async () => {
    const dirty = await webpWithLocation();
    const before = await sharp(dirty).metadata();
    expect(before.exif).toBeDefined();
    expect(before.xmp).toBeDefined();
    const clean = stripWebpMetadata(dirty);
    const after = await sharp(clean).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(clean.toString('latin1')).not.toContain('GPS');
    expect([after.width, after.height]).toEqual([64, 48]);
    const [a, b] = await Promise.all([sharp(dirty).raw().toBuffer(), sharp(clean).raw().toBuffer()]);
    expect(b.equals(a)).toBe(true);
    expect(hasWebpMetadata(dirty)).toBe(true);
    expect(hasWebpMetadata(clean)).toBe(false);
  });

  it('leaves a WebP without metadata byte for byte, and refuses what is not a WebP', async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    expect(stripWebpMetadata(plain).equals(plain)).toBe(true);
    expect(() => stripWebpMetadata(Buffer.from('not a webp at all'))).toThrow('not a WebP');
    expect(() => stripWebpMetadata(plain.subarray(0, 20))).toThrow();
  });
});
