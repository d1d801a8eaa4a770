import { describe, expect, it } from 'vitest';
import { categoryOf, checkPixels, decideType, exifFrom, mediaTypeOf, servedExif, storedTypeOf } from './types.js';

describe('decideType', () => {
  it('accepts the types of the kind, by the detected bytes', () => {
    expect(decideType('image', 'image/png')).toBe('image/png');
    expect(decideType('document', 'application/pdf')).toBe('application/pdf');
  });
  it('refuses another kind’s type and unknown bytes, saying what was found', () => {
    expect(() => decideType('document', 'image/png')).toThrow(/its bytes are image\/png/);
    expect(() => decideType('image', undefined)).toThrow(/match no known file type/);
  });
  it('names a compound file a Word 97 document', () => {
    expect(mediaTypeOf({ ext: 'cfb', mime: 'application/x-cfb' })).toBe('application/msword');
  });
});

describe('checkPixels', () => {
  it('refuses more pixels than the limit and missing dimensions', () => {
    expect(() => checkPixels(4000, 3000, 50_000_000)).not.toThrow();
    expect(() => checkPixels(50_000, 50_000, 50_000_000)).toThrow(/pixel|limit/);
    expect(() => checkPixels(undefined, 10, 50_000_000)).toThrow(/dimensions/);
  });
});

describe('exifFrom', () => {
  const raw = {
    Make: 'Canon',
    Model: 'EOS',
    Orientation: 6,
    DateTimeOriginal: new Date('2026-05-01T10:00:00Z'),
    ISO: 200,
    latitude: 52.1,
    longitude: 5.1,
    GPSAltitude: 3,
  };
  it('keeps the listed fields and GPS only with both coordinates', () => {
    const exif = exifFrom(raw);
    expect(exif).toMatchObject({ make: 'Canon', orientation: 6, iso: 200, takenAt: '2026-05-01T10:00:00.000Z' });
    expect(exif?.gps).toEqual({ latitude: 52.1, longitude: 5.1, altitude: 3 });
    expect(exifFrom({ latitude: 52 })?.gps).toBeNull();
    expect(exifFrom(undefined)).toBeNull();
  });
  it('drops GPS from what is served unless allowed', () => {
    expect(servedExif(exifFrom(raw), false)?.gps).toBeNull();
    expect(servedExif(exifFrom(raw), true)?.gps).not.toBeNull();
  });
});

describe('categoryOf', () => {
  it('keeps the category given', () => {
    expect(categoryOf({ kind: 'image', category: 'product', entityType: 'plant' })).toBe('product');
  });

  it('makes an image attached to a plant a plant photo, and anything else other', () => {
    expect(categoryOf({ kind: 'image', entityType: 'plant' })).toBe('plant-photo');
    expect(categoryOf({ kind: 'image' })).toBe('other');
    expect(categoryOf({ kind: 'image', entityType: 'farm' })).toBe('other');
    expect(categoryOf({ kind: 'document', entityType: 'plant' })).toBe('other');
  });
});

describe('storedTypeOf', () => {
  it('serves an image’s original as the WebP it was converted to, a document as uploaded', () => {
    expect(storedTypeOf('image', 'image/png')).toBe('image/webp');
    expect(storedTypeOf('image', 'image/jpeg')).toBe('image/webp');
    expect(storedTypeOf('document', 'application/pdf')).toBe('application/pdf');
  });
});
