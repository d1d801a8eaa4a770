import { describe, expect, it } from 'vitest';
import { cleanName } from './upload-stream.js';

describe('cleanName', () => {
  it('keeps the last path segment without control characters, for display only', () => {
    expect(cleanName('../../etc/passwd')).toBe('passwd');
    expect(cleanName('C:/photos/tomato.jpg')).toBe('tomato.jpg');
    expect(cleanName('evil\u0000name\u001f.png')).toBe('evilname.png');
  });
  it('names a missing or empty name "upload" and cuts long names at 255 characters', () => {
    expect(cleanName(undefined)).toBe('upload');
    expect(cleanName('   ')).toBe('upload');
    expect(cleanName(`${'a'.repeat(300)}.jpg`)).toHaveLength(255);
  });
});
