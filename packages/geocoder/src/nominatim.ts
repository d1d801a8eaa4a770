import type { Agent } from 'node:http';
import { countryName } from '@rootline/domain';
import { OutsideServiceError, requestJson } from '@rootline/host';

/** One answer of a Nominatim-compatible search. */
export interface NominatimPlace {
  name: string;
  displayName: string;
  /** ISO 3166-1 alpha-2, or null when the service gave none. */
  country: string | null;
  countryName: string | null;
  latitude: number;
  longitude: number;
}

export interface NominatimOptions {
  /** Base URL of the service, e.g. `https://nominatim.example.org` (its `/search` is called). */
  url: string;
  /** Identifies the application, as the services' usage policies ask. */
  userAgent: string;
  /** Contact address sent as `email`, which the public service asks of heavy users. */
  email?: string | undefined;
  agent?: Agent | undefined;
  /** Least time between two requests; the public service allows one a second. */
  minIntervalMs?: number;
  /** How long an answer is reused, and how many are kept. */
  cacheTtlMs?: number;
  cacheSize?: number;
  now?: () => number;
}

export interface Nominatim {
  search(q: string, limit: number): Promise<NominatimPlace[]>;
  /** Requests actually sent (cache misses). */
  readonly sent: number;
}

interface RawPlace {
  lat?: string;
  lon?: string;
  name?: string;
  display_name?: string;
  address?: { country_code?: string };
}

/**
 * A client of a Nominatim-compatible geocoder that keeps the usage policy such services publish: every request
 * names the application in its User-Agent, requests are spaced by at least `minIntervalMs` (one a second) across
 * the process, counted from the previous answer, and answers are cached, so a repeated search sends nothing.
 */
export function createNominatim(options: NominatimOptions): Nominatim {
  const { minIntervalMs = 1000, cacheTtlMs = 24 * 3600_000, cacheSize = 1000, now = Date.now } = options;
  const cache = new Map<string, { at: number; places: NominatimPlace[] }>();
  let queue: Promise<unknown> = Promise.resolve();
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let sent = 0;

  const send = async (q: string, limit: number): Promise<NominatimPlace[]> => {
    const wait = lastSentAt + minIntervalMs - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sent++;
    const url = new URL('search', options.url.endsWith('/') ? options.url : `${options.url}/`);
    url.search = new URLSearchParams({
      q,
      format: 'jsonv2',
      addressdetails: '1',
      limit: String(limit),
      ...(options.email ? { email: options.email } : {}),
    }).toString();
    // The interval counts from the previous answer, not from its sending: a slow proxy or connection can delay one
    // request's arrival and not the next, and the service must still see them a full interval apart.
    const answer = await requestJson(url, {
      headers: { 'user-agent': options.userAgent, 'accept-language': 'en' },
      agent: options.agent,
    }).finally(() => {
      lastSentAt = now();
    });
    if (answer.status !== 200 || !Array.isArray(answer.body))
      throw new OutsideServiceError(`the geocoder answered ${answer.status}`);
    return (answer.body as RawPlace[]).flatMap((p) => {
      const latitude = Number(p.lat);
      const longitude = Number(p.lon);
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return [];
      const code = p.address?.country_code?.toUpperCase() ?? null;
      const displayName = p.display_name ?? '';
      return [
        {
          name: p.name || displayName.split(',')[0]!.trim(),
          displayName,
          country: code,
          countryName: code && countryName(code),
          latitude,
          longitude,
        },
      ];
    });
  };

  return {
    get sent() {
      return sent;
    },
    search(q, limit) {
      const key = `${limit}\u0000${q.trim().toLowerCase()}`;
      const hit = cache.get(key);
      if (hit && now() - hit.at < cacheTtlMs) return Promise.resolve(hit.places);
      // One request at a time, in order: the spacing holds however many callers wait.
      const result = queue.then(() => send(q, limit));
      queue = result.catch(() => undefined);
      return result.then((places) => {
        cache.delete(key);
        cache.set(key, { at: now(), places });
        if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
        return places;
      });
    },
  };
}
