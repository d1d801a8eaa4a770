import { applyPrivacyLevel } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import { locate, reverseGeocode } from './reverse.js';

describe('reverseGeocode', () => {
  // One known place per continent, and points a few kilometres either side of borders.
  it.each([
    ['Europe: Paris', 48.8566, 2.3522, 'FR', 'Paris'],
    ['Africa: Nairobi', -1.2864, 36.8172, 'KE', 'Nairobi'],
    ['Asia: Tokyo', 35.6895, 139.6917, 'JP', 'Tokyo'],
    ['North America: Toronto', 43.6532, -79.3832, 'CA', 'Toronto'],
    ['South America: São Paulo', -23.5505, -46.6333, 'BR', 'São Paulo'],
    ['Oceania: Wellington', -41.2866, 174.7756, 'NZ', 'Wellington'],
    ['Antarctica: McMurdo', -77.846, 166.676, 'AQ', null],
    ['border: Strasbourg side', 48.5734, 7.7521, 'FR', 'Strasbourg'],
    ['border: Kehl side', 48.5725, 7.8155, 'DE', 'Kehl'],
    ['border: El Paso', 31.7619, -106.485, 'US', 'El Paso'],
    ['border: Ciudad Juárez', 31.72, -106.46, 'MX', 'Juárez'],
    ['border: Baarle-Nassau', 51.4447, 4.9291, 'NL', 'Baarle-Nassau'],
    ['territory with its own code: San Juan', 18.4655, -66.1057, 'PR', 'San Juan'],
  ])('%s', async (_label, latitude, longitude, country, city) => {
    const found = await reverseGeocode({ latitude, longitude });
    expect(found.country).toBe(country);
    if (city) expect(found.city).toBe(city);
  });

  it('names no country at sea', async () => {
    const found = await reverseGeocode({ latitude: -45, longitude: -120 });
    expect(found).toMatchObject({ country: null, city: null });
  });

  it('names only a town at the city level, nothing smaller', async () => {
    // A village in the Dutch polder: the nearest place is small; the city level names a town of 15,000 or more.
    const exact = await reverseGeocode({ latitude: 52.35, longitude: 5.62 }, 'exact');
    const city = await reverseGeocode({ latitude: 52.35, longitude: 5.62 }, 'city');
    expect(exact.city).not.toBeNull();
    expect(city.city).not.toBeNull();
    expect(city.cityKm!).toBeGreaterThanOrEqual(exact.cityKm!);
  });
});

describe('locate before the privacy level', () => {
  it('fills the country and place, and the privacy level keeps them while it moves the point', async () => {
    // Near the Swiss border: the ~100 km country cell's centre may fall in France, the country stays Switzerland.
    const at = { latitude: 46.2044, longitude: 6.1432 };
    const filled = await locate(at, 'country');
    expect(filled).toMatchObject({ country: 'CH' });
    const stored = applyPrivacyLevel(filled, 'country', Math.random)!;
    expect(stored.country).toBe('CH');
    expect(stored.city).toBeUndefined();

    const city = applyPrivacyLevel(await locate(at, 'city'), 'city', Math.random)!;
    expect(city).toMatchObject({ country: 'CH', city: 'Genève' });
  });

  it('keeps what the caller gave', async () => {
    const filled = await locate({ latitude: 48.8566, longitude: 2.3522, city: 'Ville Lumière' }, 'exact');
    expect(filled).toEqual({ latitude: 48.8566, longitude: 2.3522, city: 'Ville Lumière', country: 'FR' });
  });

  it('fills nothing for a hidden location', async () => {
    expect(await locate({ latitude: 48.8566, longitude: 2.3522 }, 'hidden')).toEqual({
      latitude: 48.8566,
      longitude: 2.3522,
    });
  });
});
