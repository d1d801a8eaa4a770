import { describe, expect, it } from 'vitest';
import { fitWithin, jpegName, UPLOAD_MAX_SIDE } from './fit';

describe('fitWithin', () => {
  it('scales a large photo down to the longest side, keeping its shape', () => {
    expect(fitWithin(4000, 3000, UPLOAD_MAX_SIDE)).toEqual({ width: 2048, height: 1536 });
    expect(fitWithin(3000, 4000, 2048)).toEqual({ width: 1536, height: 2048 });
    expect(fitWithin(9000, 10, 2048)).toEqual({ width: 2048, height: 2 });
  });

  it('leaves a photo that fits as it is and never scales one up', () => {
    expect(fitWithin(2048, 1000, 2048)).toEqual({ width: 2048, height: 1000 });
    expect(fitWithin(800, 600, 2048)).toEqual({ width: 800, height: 600 });
  });

  it('keeps at least one pixel on each side', () => {
    expect(fitWithin(100_000, 1, 2048)).toEqual({ width: 2048, height: 1 });
  });
});

describe('jpegName', () => {
  it('names the photo sent as JPEG after the chosen file', () => {
    expect(jpegName('IMG_2041.HEIC')).toBe('IMG_2041.jpg');
    expect(jpegName('tomato.png')).toBe('tomato.jpg');
    expect(jpegName('my.garden.webp')).toBe('my.garden.jpg');
    expect(jpegName('image')).toBe('image.jpg');
    expect(jpegName('.jpg')).toBe('photo.jpg');
  });
});
