import { AppError, GEOCODE_LIMITS, type GeocodedPlace, geocodeSearch } from '@rootline/contracts';
import { type Nominatim, searchPlaces } from '@rootline/geocoder';
import { handle, type ServiceContext } from '@rootline/host';

/**
 * plants.place.search: places by name. The bundled gazetteer always answers; when a Nominatim-compatible
 * geocoder is configured its answers (which know streets and addresses) come first for signed-in callers, and the
 * gazetteer's alone are given while it is away and to visitors.
 */
export const searchPlacesHandler = (ctx: ServiceContext, geocoder: Nominatim | null) =>
  handle(geocodeSearch, async ({ q, page, limit }, call) => {
    const fromGazetteer: GeocodedPlace[] = searchPlaces(q, GEOCODE_LIMITS.maxResults).map((p) => ({
      ...p,
      displayName: p.countryName ? `${p.name}, ${p.countryName}` : p.name,
      source: 'gazetteer',
    }));
    let fromGeocoder: GeocodedPlace[] = [];
    // Visitors get the gazetteer alone: the outside geocoder allows few requests, and their text stays here.
    if (geocoder && call.actor) {
      try {
        fromGeocoder = (await geocoder.search(q, 10)).map((p) => ({
          ...p,
          population: null,
          match: null,
          source: 'geocoder',
        }));
      } catch (err) {
        ctx.log.warn({ err }, 'the geocoder did not answer; gazetteer results only');
      }
    }
    const all = [...fromGeocoder, ...fromGazetteer].slice(0, GEOCODE_LIMITS.maxResults);
    if (all.length === 0 && q.trim().length === 0) throw new AppError('VALIDATION_ERROR', 'q: empty');
    const start = (page - 1) * limit;
    return {
      items: all.slice(start, start + limit),
      pagination: { page, limit, total: all.length, totalPages: Math.ceil(all.length / limit) },
    };
  });
