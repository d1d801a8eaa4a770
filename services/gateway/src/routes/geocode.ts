import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodedPlace, geocodeSearch, PAGE_DEFAULTS } from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

/** Forward geocoding under /api/geocode: a place's coordinates from its name. */
export const geocodeRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '/',
    summary: 'Find a place by name',
    description:
      'Towns and cities of 1,000 people or more whose name matches `q` as people type it: case and accents are ' +
      'ignored ("zurich" finds Zürich), a beginning is enough ("rotterd"), one letter wrong, missing, extra or ' +
      'swapped is forgiven (two in names of eight letters or more) when nothing matches better, and "name, ' +
      'country" (a country name or ISO code) narrows the search. Exact matches first, then beginnings, then typos, ' +
      'each by population. Answered on this machine from the bundled GeoNames gazetteer, with no outside call.\n\n' +
      'When the operator configures a Nominatim-compatible geocoder (`GEOCODER_URL`), its answers (which know ' +
      'streets and addresses) come first, marked `source: geocoder`, and the text of `q` is sent to that service ' +
      '(through the SOCKS proxy when one is set, at most one request a second per process, answers cached); while ' +
      'it is away the gazetteer answers alone. A visitor (no credential, or one that is not valid) is answered ' +
      'by the gazetteer alone, so no visitor’s text leaves the machine. Rate-limited like every route. The ' +
      'coordinates of an answer go ' +
      `into any \`location\` of Rootline. \`page\` from 1; \`limit\` default ${PAGE_DEFAULTS.limit}.`,
    tags: ['Places'],
    policy: { public: true, identifiesCaller: true, object: { rule: 'none', why: 'place names, no record' } },
    subject: geocodeSearch,
    page: { item: GeocodedPlace },
  });
};
