/** Pure map geometry: Web Mercator as Leaflet and tile servers draw it, areas around a point, town labels by zoom. */

export interface LatLon {
  lat: number;
  lon: number;
}

export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** A bundled town: name, latitude, longitude, people (as `towns.json` holds it, largest first). */
export type Town = readonly [name: string, lat: number, lon: number, population: number];

const TILE = 256;
/** Web Mercator stops short of the poles, at the latitude where the world is square. */
export const MAX_LATITUDE = 85.0511287798;
const EARTH_KM = 6371.0088;

const clampLat = (lat: number) => Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));

/** The pixel of a point on the whole world drawn at `zoom` (256 × 2^zoom pixels square, north-west at 0, 0). */
export function project({ lat, lon }: LatLon, zoom: number): { x: number; y: number } {
  const size = TILE * 2 ** zoom;
  const sin = Math.sin((clampLat(lat) * Math.PI) / 180);
  return {
    x: ((lon + 180) / 360) * size,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size,
  };
}

/** The point at a pixel of the whole world drawn at `zoom`: the inverse of `project`. */
export function unproject({ x, y }: { x: number; y: number }, zoom: number): LatLon {
  const size = TILE * 2 ** zoom;
  const lon = (x / size) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  return { lat, lon };
}

/**
 * The point under a pixel of a map of `width` × `height` pixels centred on `center` at `zoom`: what a click there
 * picks. The centre pixel gives the centre back, whatever the latitude (a Mercator map is not linear in latitude, so
 * a linear guess drifts away from the equator).
 */
export function pointAt(
  center: LatLon,
  zoom: number,
  size: { width: number; height: number },
  pixel: { x: number; y: number },
): LatLon {
  const c = project(center, zoom);
  const p = unproject({ x: c.x + pixel.x - size.width / 2, y: c.y + pixel.y - size.height / 2 }, zoom);
  return { lat: p.lat, lon: wrapLongitude(p.lon) };
}

/** A longitude brought into -180…180 (a map that wraps around the world gives any). */
export function wrapLongitude(lon: number): number {
  const w = (((lon + 180) % 360) + 360) % 360;
  return w - 180;
}

/** The box holding every point within `km` of `center` (the north and south kept inside the map). */
export function boundsAround(center: LatLon, km: number): Bounds {
  const dLat = (km / EARTH_KM) * (180 / Math.PI);
  const cos = Math.cos((center.lat * Math.PI) / 180);
  const dLon = cos < 1e-6 ? 180 : Math.min(180, dLat / cos);
  return {
    south: clampLat(center.lat - dLat),
    north: clampLat(center.lat + dLat),
    west: center.lon - dLon,
    east: center.lon + dLon,
  };
}

/** The smallest box holding `bounds` and `points`. */
export function extendBounds(bounds: Bounds, points: readonly LatLon[]): Bounds {
  let { south, west, north, east } = bounds;
  for (const p of points) {
    south = Math.min(south, p.lat);
    north = Math.max(north, p.lat);
    west = Math.min(west, p.lon);
    east = Math.max(east, p.lon);
  }
  return { south, west, north, east };
}

/** The fewest people a town has to be labelled at `zoom`: the larger towns first, more as one zooms in. */
export function labelPopulationAt(zoom: number): number {
  if (zoom <= 2) return 10_000_000;
  if (zoom <= 3) return 3_000_000;
  if (zoom <= 4) return 1_000_000;
  if (zoom <= 5) return 500_000;
  if (zoom <= 6) return 200_000;
  if (zoom <= 7) return 100_000;
  return 50_000;
}

/** A label's box in pixels: labels whose boxes would touch are left out, the larger town kept. */
const LABEL = { width: 110, height: 22 };

/**
 * The towns to label in a view: inside `bounds`, large enough for `zoom`, and no two so close that their labels
 * overlap (the larger wins: `towns` come largest first). At most `max` of them.
 */
export function townsToLabel(towns: readonly Town[], bounds: Bounds, zoom: number, max = 60): Town[] {
  const min = labelPopulationAt(zoom);
  const placed: { x: number; y: number }[] = [];
  const out: Town[] = [];
  // A view may cross the antimeridian (west > 180 or east < -180 as Leaflet gives them): compare wrapped longitudes.
  const spansWorld = bounds.east - bounds.west >= 360;
  const west = wrapLongitude(bounds.west);
  const east = wrapLongitude(bounds.east);
  const inLon = (lon: number) => spansWorld || (west <= east ? lon >= west && lon <= east : lon >= west || lon <= east);
  for (const town of towns) {
    const [, lat, lon, population] = town;
    if (population < min) break;
    if (lat < bounds.south || lat > bounds.north || !inLon(lon)) continue;
    const p = project({ lat, lon }, zoom);
    if (placed.some((q) => Math.abs(q.x - p.x) < LABEL.width && Math.abs(q.y - p.y) < LABEL.height)) continue;
    placed.push(p);
    out.push(town);
    if (out.length >= max) break;
  }
  return out;
}

/** A point as people read it: "45.76° N, 4.84° E". */
export function formatPoint({ lat, lon }: LatLon): string {
  const f = (x: number) => Math.abs(x).toFixed(2);
  return `${f(lat)}° ${lat < 0 ? 'S' : 'N'}, ${f(wrapLongitude(lon))}° ${wrapLongitude(lon) < 0 ? 'W' : 'E'}`;
}

/** What a map centred on a place or point and fitting a radius around it shows, in words. */
export function describeView(center: LatLon & { name?: string | undefined }, km: number): string {
  return `Map centred on ${center.name ?? formatPoint(center)}, ${formatKm(km)} km`;
}

function formatKm(km: number): string {
  return Number.isInteger(km) ? String(km) : km.toFixed(1);
}
