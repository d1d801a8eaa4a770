import { randomBytes } from 'node:crypto';
import type { Agent } from 'node:http';
import type { Organ, SpeciesCandidate } from '@rootline/contracts';
import { OutsideServiceError, requestJson } from '@rootline/host';

/** Where and how to reach a service speaking the Pl@ntNet identification API (v2). */
export interface PlantNetOptions {
  /** Base URL, e.g. `https://my-api.plantnet.org`; `/v2/identify/{project}` is called under it. */
  url: string;
  apiKey: string;
  /** The flora to search (`all` for every one). */
  project: string;
  agent?: Agent | undefined;
  timeoutMs?: number;
}

/** A photo ready to leave: JPEG bytes without metadata, and the organ it shows. */
export interface OutgoingPhoto {
  jpeg: Buffer;
  organ: Organ;
}

/** The provider refused or failed; `status` is its HTTP status (0 when unreachable). */
export class IdentificationUnavailable extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A `multipart/form-data` body: each photo in a field `images`, each organ in a field `organs`, in order. */
export function identifyForm(photos: readonly OutgoingPhoto[]): { body: Buffer; contentType: string } {
  const boundary = `rootline-${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  photos.forEach((p, i) => {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="photo-${i + 1}.jpg"\r\n` +
          'Content-Type: image/jpeg\r\n\r\n',
      ),
      p.jpeg,
      Buffer.from('\r\n'),
    );
  });
  for (const p of photos) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="organs"\r\n\r\n${p.organ}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface RawName {
  scientificNameWithoutAuthor?: string;
  scientificNameAuthorship?: string;
}
interface RawResult {
  score?: number;
  species?: RawName & { genus?: RawName; family?: RawName; commonNames?: string[] };
  gbif?: { id?: string | number } | null;
  powo?: { id?: string | number } | null;
}

/** The provider's results as candidates, best first, at most `max`. */
export function candidatesOf(body: unknown, max: number): SpeciesCandidate[] {
  const results = (body as { results?: RawResult[] } | null)?.results;
  if (!Array.isArray(results)) throw new IdentificationUnavailable('the provider answered without results', 502);
  return results
    .filter((r) => typeof r.species?.scientificNameWithoutAuthor === 'string' && typeof r.score === 'number')
    .sort((a, b) => b.score! - a.score!)
    .slice(0, max)
    .map((r) => ({
      scientificName: r.species!.scientificNameWithoutAuthor!,
      author: r.species!.scientificNameAuthorship || null,
      genus: r.species!.genus?.scientificNameWithoutAuthor ?? null,
      family: r.species!.family?.scientificNameWithoutAuthor ?? null,
      commonNames: (r.species!.commonNames ?? []).filter((n) => typeof n === 'string'),
      score: Math.min(1, Math.max(0, r.score!)),
      gbifId: r.gbif?.id == null ? null : String(r.gbif.id),
      powoId: r.powo?.id == null ? null : String(r.powo.id),
    }));
}

/**
 * Asks the provider which species the photos show (`POST /v2/identify/{project}?api-key=…`, multipart `images` and
 * `organs`). A 404 is its "species not found": no candidate. Any other failure raises IdentificationUnavailable.
 */
export async function identifyWithPlantNet(
  options: PlantNetOptions,
  photos: readonly OutgoingPhoto[],
  max: number,
): Promise<SpeciesCandidate[]> {
  const url = new URL(
    `v2/identify/${encodeURIComponent(options.project)}`,
    options.url.endsWith('/') ? options.url : `${options.url}/`,
  );
  url.search = new URLSearchParams({ 'api-key': options.apiKey, lang: 'en', 'nb-results': String(max) }).toString();
  const form = identifyForm(photos);
  let answer: Awaited<ReturnType<typeof requestJson>>;
  try {
    answer = await requestJson(url, {
      method: 'POST',
      headers: { 'content-type': form.contentType },
      body: form.body,
      agent: options.agent,
      timeoutMs: options.timeoutMs ?? 30_000,
    });
  } catch (err) {
    throw new IdentificationUnavailable(err instanceof OutsideServiceError ? err.message : String(err), 0);
  }
  if (answer.status === 404) return [];
  if (answer.status !== 200)
    throw new IdentificationUnavailable(`the provider answered ${answer.status}`, answer.status);
  return candidatesOf(answer.body, max);
}
