/**
 * The subject of the minimal pipeline's plant lookup. Request: the plant id. Reply: the plant as a JSON object,
 * empty when there is no such plant, or an error message (anything not starting with `{`).
 */
export const MINIMAL_PLANT_SUBJECT = 'bench.plant.get';

/**
 * The subject of the minimal pipeline's nearby query. Request: `<lat>,<lon>` (the default radius and first page).
 * Reply: the rows of the platform's nearby statement as a JSON array, or an error message (anything not starting
 * with `[`).
 */
export const MINIMAL_NEARBY_SUBJECT = 'bench.plant.nearby';

/** Queue group of the minimal plant responder. */
export const MINIMAL_QUEUE = 'bench-plants';

/** Reads a required environment variable of a benchmark child process. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
