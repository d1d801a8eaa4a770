import type { IDEMPOTENCY_HEADER, RootlineClient } from '@rootline/sdk';

/** An SDK answer: its data, or the error and the response. */
export type Answer<T> = { data?: { data: T }; error?: unknown; response: Response };

/** One call of the API, given the Idempotency-Key header to send. */
export type Call<T> = (headers: { [IDEMPOTENCY_HEADER]: string }) => Promise<Answer<T>>;

/** A demo account, signed in. */
export interface Person {
  name: string;
  email: string;
  id: string;
  token: string;
  client: RootlineClient;
}

/** What every part of the demo works with. */
export interface DemoContext {
  baseUrl: string;
  /** The run id every address and lot of this run carries. */
  run: string;
  step(line: string): void;
  /** The data of a successful call (retried when rate limited), else a RootlineError naming `what`. */
  ok<T>(what: string, call: Call<T>): Promise<T>;
  /** Registers and signs in a new account. */
  person(name: string, local: string): Promise<Person>;
}

export const DAY_MS = 86_400_000;

/** `days` days before now at `hour`:00 UTC, as ISO 8601. */
export const daysAgo = (days: number, hour = 9) => {
  const at = new Date(Date.now() - days * DAY_MS);
  at.setUTCHours(hour, 0, 0, 0);
  return at.toISOString();
};

/** The Monday `weeksAgo` weeks before this week's (UTC), as YYYY-MM-DD. */
export function mondayWeeksAgo(weeksAgo: number): string {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) - 7 * weeksAgo);
  return d.toISOString().slice(0, 10);
}

export const PLACES = {
  amsterdam: { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' },
  utrecht: { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' },
  leiden: { latitude: 52.1601, longitude: 4.497, city: 'Leiden', country: 'NL' },
  haarlem: { latitude: 52.3874, longitude: 4.6462, city: 'Haarlem', country: 'NL' },
  rotterdam: { latitude: 51.9225, longitude: 4.4792, city: 'Rotterdam', country: 'NL' },
} as const;
export type Place = keyof typeof PLACES;
