/** A point in decimal degrees. */
export interface Point {
  latitude: number;
  longitude: number;
}

/** Mean Earth radius (IUGG), the sphere every distance in Rootline is measured on. */
export const EARTH_RADIUS_KM = 6371.0088;
/** Degrees to radians. */
export const RAD = Math.PI / 180;
/** Length of one degree of latitude (and of longitude on the equator). */
export const KM_PER_DEGREE = EARTH_RADIUS_KM * RAD;

/**
 * Great-circle distance in kilometres by the haversine formula. The nearby query computes the same
 * expression in SQL, term for term, so that its results equal a scan with this function.
 */
export function haversineKm(a: Point, b: Point): number {
  const p1 = a.latitude * RAD;
  const p2 = b.latitude * RAD;
  const sLat = Math.sin((p2 - p1) / 2);
  const sLon = Math.sin((b.longitude * RAD - a.longitude * RAD) / 2);
  const h = sLat * sLat + Math.cos(p1) * Math.cos(p2) * sLon * sLon;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Coordinates nearer 0 than this many degrees (0.1 mm on the ground) are stored and searched as 0. */
export const TINY_DEGREES = 1e-9;

/**
 * A point with every coordinate nearer 0 than `TINY_DEGREES` set to 0. The haversine terms square the sine of
 * half a difference of coordinates; with a coordinate such as 1e-300 that square is below the smallest double,
 * and PostgreSQL raises "value out of range: underflow" where JavaScript would quietly give 0. Once tiny values
 * are 0, any two different coordinates differ by far more than that, at every latitude.
 */
export function withoutTinyDegrees<P extends Point>(point: P): P {
  const flush = (x: number) => (Math.abs(x) < TINY_DEGREES ? 0 : x);
  return { ...point, latitude: flush(point.latitude), longitude: flush(point.longitude) };
}

/** Longitude brought into [-180, 180). */
export function normaliseLongitude(lon: number): number {
  const x = (((lon + 180) % 360) + 360) % 360;
  return x - 180;
}

/** The point reached from `start` after `distanceKm` along the initial bearing (radians, clockwise from north). */
export function destinationPoint(start: Point, bearing: number, distanceKm: number): Point {
  const d = distanceKm / EARTH_RADIUS_KM;
  const p1 = start.latitude * RAD;
  const l1 = start.longitude * RAD;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(bearing));
  const l2 = l1 + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return { latitude: p2 / RAD, longitude: normaliseLongitude(l2 / RAD) };
}

/**
 * Latitude bands of the nearby index: a plant with latitude φ is in band floor(φ × 10), about 11 km tall.
 * The plants table computes the same value in its generated `geo_band` column.
 */
export const GEO_BANDS_PER_DEGREE = 10;

/** The band of a latitude, as the table's generated column computes it. */
export function geoBand(latitude: number): number {
  return Math.floor(latitude * GEO_BANDS_PER_DEGREE);
}

/** A latitude range and one or two longitude ranges (two when the box crosses the antimeridian). */
export interface GeoBox {
  minLat: number;
  maxLat: number;
  lonRanges: [number, number][];
  /** Every band the latitude range touches, in order. */
  bands: number[];
}

// Widens the box by far less than a millimetre so rounding can never drop a point the haversine keeps.
const SLACK = 1e-9;

/**
 * The smallest latitude/longitude box holding every point within `radiusKm` of `center` on the sphere
 * (the extreme longitude comes from asin(sin r / cos φ), exact on a sphere). Near a pole the box spans
 * every longitude.
 */
export function boundingBox(center: Point, radiusKm: number): GeoBox {
  const r = radiusKm / EARTH_RADIUS_KM;
  const dLat = r / RAD + SLACK;
  const minLat = Math.max(-90, center.latitude - dLat);
  const maxLat = Math.min(90, center.latitude + dLat);
  let lonRanges: [number, number][];
  const cosLat = Math.cos(center.latitude * RAD);
  if (maxLat >= 90 || minLat <= -90 || Math.sin(r) >= cosLat) {
    lonRanges = [[-180, 180]];
  } else {
    const dLon = Math.asin(Math.sin(r) / cosLat) / RAD + SLACK;
    const west = center.longitude - dLon;
    const east = center.longitude + dLon;
    if (west < -180)
      lonRanges = [
        [west + 360, 180],
        [-180, east],
      ];
    else if (east > 180)
      lonRanges = [
        [west, 180],
        [-180, east - 360],
      ];
    else lonRanges = [[west, east]];
  }
  const bands: number[] = [];
  for (let b = geoBand(minLat); b <= geoBand(maxLat); b++) bands.push(b);
  return { minLat, maxLat, lonRanges, bands };
}
