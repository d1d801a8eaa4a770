import { describe, expect, it } from 'vitest';
import { checkScientificName, tidyScientificName } from './checklist.js';

describe('checkScientificName', () => {
  it('tidies case and spacing and adds the accepted name’s author and family', () => {
    expect(checkScientificName('  solanum   LYCOPERSICUM ')).toEqual({
      name: 'Solanum lycopersicum',
      taxon: { author: 'L.', family: 'Solanaceae', givenName: null },
    });
  });

  it('replaces a synonym by its accepted name and keeps the name given', () => {
    expect(checkScientificName('Rosmarinus officinalis')).toEqual({
      name: 'Salvia rosmarinus',
      taxon: { author: 'Spenn.', family: 'Lamiaceae', givenName: 'Rosmarinus officinalis' },
    });
    expect(checkScientificName('pisum sativum')).toMatchObject({ name: 'Lathyrus oleraceus' });
  });

  it('writes the hybrid sign and keeps a cultivar after the species', () => {
    expect(checkScientificName('fragaria x ananassa')).toMatchObject({ name: 'Fragaria × ananassa' });
    expect(checkScientificName("Solanum lycopersicum 'San Marzano'")).toMatchObject({
      name: "Solanum lycopersicum 'San Marzano'",
    });
  });

  it('only tidies a name the checklist does not hold', () => {
    expect(checkScientificName('welwitschia MIRABILIS')).toEqual({ name: 'Welwitschia mirabilis' });
    expect(tidyScientificName('Brassica oleracea var italica')).toBe('Brassica oleracea var. italica');
  });
});
