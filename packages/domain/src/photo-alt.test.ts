import { describe, expect, it } from 'vitest';
import { photoAlt } from './photo-alt.js';

describe('photoAlt', () => {
  it('names what a single photo shows', () => {
    expect(photoAlt("Tomato 'Brandywine'")).toBe("Photo of Tomato 'Brandywine'");
  });
  it('numbers the photos of a gallery', () => {
    expect(photoAlt('Basil seedlings', 1, 3)).toBe('Photo 2 of 3 of Basil seedlings');
  });
  it('never answers an empty text', () => {
    expect(photoAlt('  ')).toBe('Photo of the record');
  });
});
