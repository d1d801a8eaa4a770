// Bodies of new readings for the farm-readings benchmark, made in the load generator as each request is sent.
import type { GeneratedRequest } from './load-protocol.js';

export interface NewReadingsArgs {
  /** The batches written to, in turn. */
  batches: string[];
  /** Instant (ms) of a batch's first reading. */
  from: number;
  /** Between two readings of a batch. */
  stepMs: number;
  perRequest: number;
}

/**
 * `count` readings `stepMs` apart from `first` (ms), within the lettuce germination targets (the common, cheap
 * path), at the given humidity: what the benchmark's bodies are made of.
 */
export function lettuceReadings(first: number, stepMs: number, count: number, humidityPct: number) {
  return Array.from({ length: count }, (_, i) => ({
    at: new Date(first + i * stepMs).toISOString(),
    temperatureC: 20 + (i % 5) * 0.1,
    humidityPct,
    co2Ppm: 1000,
    ppfd: 50,
    ecMsCm: 0.5,
    ph: 5.8,
    waterTemperatureC: 21,
    dissolvedOxygenMgL: 8,
  }));
}

/**
 * The n-th request of new readings: the next `perRequest` readings of batch `n % batches`, `stepMs` apart after
 * those its earlier requests sent, so every request stores all of them (as a sensor gateway reporting its zone
 * does), within the lettuce targets. The humidity (86 %) differs from the resent bodies' (85 %), so no reading
 * of one run is a copy of the other's.
 */
export function newReadingsRequest(args: NewReadingsArgs, n: number): GeneratedRequest {
  const batch = args.batches[n % args.batches.length];
  const first = args.from + Math.floor(n / args.batches.length) * args.perRequest * args.stepMs;
  const readings = lettuceReadings(first, args.stepMs, args.perRequest, 86);
  return { method: 'PUT', path: `/api/vertical-farm/batch/${batch}/environment`, body: JSON.stringify({ readings }) };
}
