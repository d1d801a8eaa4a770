/** Texts shared by the vertical-farming routes' documentation. */
export const RETRIES =
  'Send an `Idempotency-Key` header (a fresh UUID per new request, the same for its retries): a retry gets the ' +
  'first answer.';

/** The full Idempotency-Key rules, for writes that are not creations (their answer is not a new record). */
export const KEYED_RETRIES =
  'Send an `Idempotency-Key` header (a fresh UUID per new request, the same one for its retries): a retry with ' +
  'the same key and body gets the first answer for 24 h (`Idempotent-Replayed: true`) and is stored once; the ' +
  'key with another body is 422 IDEMPOTENCY_KEY_REUSED, a retry while the first is in flight 409 DUPLICATE with ' +
  'Retry-After.';

export const LEDGER_RETRIES = `${RETRIES} 503 UNAVAILABLE (with Retry-After) means the ledger did not answer: retry with the same key.`;

export const OWNER_ONLY = 'Only the farm’s owner or an ADMIN may do this (403 FORBIDDEN otherwise).';

/** Batches, readings and analytics are the farm's operational data, read as its live room is joined. */
export const OPERATOR_ONLY =
  'Operational data: only the farm’s owner or an ADMIN may read it, as its live room (403 FORBIDDEN otherwise); ' +
  'the farm’s profile and zones are read by every signed-in user.';

const phase = (name: string, days: number, ppfd: [number, number], hours: number) => ({
  phase: name,
  days,
  targets: {
    ppfd: { min: ppfd[0], max: ppfd[1] },
    photoperiodHours: hours,
    dayTemperatureC: 23,
    nightTemperatureC: 18,
    humidityPct: { min: 55, max: 70 },
    co2Ppm: { min: 800, max: 1200 },
    ecMsCm: { min: 1.1, max: 1.4 },
    ph: { min: 5.6, max: 6.0 },
  },
});

export const RECIPE_EXAMPLE = {
  parentId: 'rcp_lettuce0butterhead01',
  name: 'Butterhead lettuce, cooler nights',
  phases: [
    phase('germination', 3, [40, 60], 24),
    phase('seedling', 8, [180, 220], 20),
    phase('vegetative', 22, [270, 320], 16),
  ],
  sources: ['Own trials, Rotterdam Harbour Greens, 2026'],
};
