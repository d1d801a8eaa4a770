import { describe, expect, it } from 'vitest';
import { normaliseSearchText } from './search-text.js';

describe('normaliseSearchText', () => {
  it('ignores case, accents and punctuation', () => {
    expect(normaliseSearchText('Crème Brûlée!')).toBe('creme brulee');
    expect(normaliseSearchText('  SÃO   Paulo, BR ')).toBe('sao paulo br');
    expect(normaliseSearchText('Straße')).toBe('strasse');
    expect(normaliseSearchText('Ærøskøbing')).toBe('aeroskobing');
    expect(normaliseSearchText('Łódź')).toBe('lodz');
  });

  it('keeps letters of other scripts and digits', () => {
    expect(normaliseSearchText('トマト 2')).toBe('トマト 2');
  });

  it('leaves nothing to match in punctuation alone', () => {
    expect(normaliseSearchText('%_!')).toBe('');
  });
});
