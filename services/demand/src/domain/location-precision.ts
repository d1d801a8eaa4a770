import { distanceBandKm, LOCATION_PRECISION_KM } from '@rootline/contracts/demand';
import { haversineKm, KM_PER_DEGREE, type Point } from '@rootline/domain';

// Every distance the demand service computes between a household and anything else is between the centres of
// fixed grid cells of LOCATION_PRECISION_KM, every radius it accepts is rounded up to a multiple of it, and every
// distance shown to anyone but the household is rounded up to it (distanceBandKm): whatever a caller asks, the
// answers are a function of the household's cell (docs/privacy.md, ADR 173).
export { distanceBandKm, LOCATION_PRECISION_KM };

/** Height of a grid row, in degrees of latitude. */
const ROW_DEG = LOCATION_PRECISION_KM / KM_PER_DEGREE;
/** Rows near the poles keep cells of at least this cosine, so a row never holds unbounded cells. */
const MIN_COS = 0.05;

/** A cell of the fixed grid: its key and its centre. */
export interface GridCell extends Point {
  key: string;
}

function rowOf(latitude: number): number {
  return Math.floor((Math.min(90 - 1e-9, Math.max(-90, latitude)) + 90) / ROW_DEG);
}

/** Width of the cells of a row, in degrees of longitude (cells about LOCATION_PRECISION_KM wide at its middle). */
function columnDegOf(row: number): number {
  const mid = -90 + (row + 0.5) * ROW_DEG;
  return Math.min(360, ROW_DEG / Math.max(MIN_COS, Math.cos((mid * Math.PI) / 180)));
}

function cellAt(row: number, column: number): GridCell {
  const width = columnDegOf(row);
  return {
    key: `${row}:${column}`,
    latitude: -90 + (row + 0.5) * ROW_DEG,
    longitude: -180 + (column + 0.5) * width,
  };
}

/**
 * The grid cell a point lies in: rows of LOCATION_PRECISION_KM of latitude, each cut into cells about as wide,
 * fixed for ever (they depend on no data), so every point of a cell gets the same centre.
 */
export function gridCell(p: Point): GridCell {
  const row = rowOf(p.latitude);
  const width = columnDegOf(row);
  const lon = (((p.longitude + 180) % 360) + 360) % 360;
  return cellAt(row, Math.min(Math.floor(lon / width), Math.ceil(360 / width) - 1));
}

/** Distance between the cells of two points, km: the only distance a household's location enters. */
export function cellDistanceKm(a: Point, b: Point): number {
  return haversineKm(gridCell(a), gridCell(b));
}

/** A radius rounded up to a whole multiple of LOCATION_PRECISION_KM (0.02 km reads 5 km, 12 km 15 km). */
export const snapRadiusKm = distanceBandKm;
