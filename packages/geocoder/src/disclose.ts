import type { Location, PrivacyLevel } from '@rootline/contracts';
import { applyPrivacyLevel } from '@rootline/domain';
import { locate } from './reverse.js';

/**
 * What is stored, returned and written to the ledger of a location given at a privacy level: its missing country
 * and place filled from the exact point first (`locate`), then the level applied (`applyPrivacyLevel`).
 */
export async function discloseLocation(
  location: Location,
  level: PrivacyLevel,
  random: () => number,
): Promise<Location | null> {
  return applyPrivacyLevel(await locate(location, level), level, random);
}
