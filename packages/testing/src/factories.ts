import type { PlantInput } from '@rootline/contracts';

let seq = 0;

/** A valid plant registration body; pass overrides for the fields a test cares about. */
export function plantInput(overrides: Partial<PlantInput> = {}): PlantInput {
  seq += 1;
  return {
    commonName: `Tomato ${seq}`,
    scientificName: 'Solanum lycopersicum',
    location: { latitude: 52.37 + seq * 1e-4, longitude: 4.89, city: 'Amsterdam', country: 'NL' },
    owner: { id: 'usr_test', name: 'Test Grower' },
    ...overrides,
  };
}
