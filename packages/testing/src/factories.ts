import type { AnonymousRegistrationInput, CloneInput, PlantInput } from '@rootline/contracts';

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

/** A valid propagation body for a parent; pass overrides for the fields a test cares about. */
export function cloneInput(parentPlantId: string, overrides: Partial<CloneInput> = {}): CloneInput {
  seq += 1;
  return {
    parentPlantId,
    propagationType: 'cutting',
    newPlant: {
      location: { latitude: 52.09 + seq * 1e-4, longitude: 5.12, city: 'Utrecht', country: 'NL' },
      owner: { id: 'usr_test', name: 'Test Grower' },
    },
    ...overrides,
  };
}

/** A valid anonymous registration body (no owner, no personal data). */
export function anonymousPlantInput(overrides: Partial<AnonymousRegistrationInput> = {}): AnonymousRegistrationInput {
  seq += 1;
  return {
    commonName: `Basil ${seq}`,
    location: { latitude: 48.8566 + seq * 1e-4, longitude: 2.3522, city: 'Paris', country: 'FR' },
    ...overrides,
  };
}
