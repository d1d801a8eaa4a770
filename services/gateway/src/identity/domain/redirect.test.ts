import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './redirect.js';

describe('return path after a third-party sign-in', () => {
  it('defaults to / and keeps paths on this site', () => {
    expect(safeReturnPath(undefined)).toBe('/');
    expect(safeReturnPath('')).toBe('/');
    expect(safeReturnPath('/garden?tab=plants#top')).toBe('/garden?tab=plants#top');
  });

  it('refuses other origins in all their disguises', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'evil.example',
      '/\tevil',
      '/ok\\..\\evil',
      `/${'a'.repeat(2001)}`,
    ]) {
      expect(safeReturnPath(bad), bad).toBeNull();
    }
  });
});
