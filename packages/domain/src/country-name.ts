// Made on first use: the first Intl object of a process reads ICU's locale data, which makes some 6 MiB of the node
// binary's pages resident, and most service processes never name a country.
let englishNames: Intl.DisplayNames | undefined;

/** English name of an ISO 3166-1 alpha-2 code, or null when it is none. */
export function countryName(code: string): string | null {
  englishNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  try {
    return englishNames.of(code.toUpperCase()) ?? null;
  } catch {
    return null;
  }
}
