import { describe, expect, it } from 'vitest';
import { imagesRefusal } from './listing-images.js';

const files = [
  { id: 'fil_a', ownerId: 'usr_seller', kind: 'image' },
  { id: 'fil_b', ownerId: 'usr_alice', kind: 'image' },
  { id: 'fil_c', ownerId: 'usr_seller', kind: 'document' },
];

describe('imagesRefusal', () => {
  it('accepts the seller’s own images, and no images', () => {
    expect(imagesRefusal(['fil_a'], files, 'usr_seller')).toBeUndefined();
    expect(imagesRefusal([], [], 'usr_seller')).toBeUndefined();
  });
  it('refuses another user’s file as one that does not exist, naming the field', () => {
    const refusal = imagesRefusal(['fil_a', 'fil_b'], files, 'usr_seller');
    expect(refusal).toMatchObject({ code: 'NOT_FOUND', details: { field: 'imageFileIds.1' } });
    expect(refusal?.message).toBe(imagesRefusal(['fil_a', 'fil_b'], [files[0]!], 'usr_seller')?.message);
  });
  it('tells an ADMIN, who reads every file, that it is not the seller’s', () => {
    expect(imagesRefusal(['fil_a', 'fil_b'], files, 'usr_seller', true)).toMatchObject({
      code: 'FORBIDDEN',
      details: { field: 'imageFileIds.1', reason: 'not-owner' },
    });
  });
  it('refuses a document as an image, and an unknown file', () => {
    expect(imagesRefusal(['fil_c'], files, 'usr_seller')?.code).toBe('VALIDATION_ERROR');
    expect(imagesRefusal(['fil_x'], files, 'usr_seller')?.code).toBe('NOT_FOUND');
  });
});
