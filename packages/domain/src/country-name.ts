const englishNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** English name of an ISO 3166-1 alpha-2 code, or null when it is none. */
export function countryName(code: string): string | null {
  try {
    return englishNames.of(code.toUpperCase()) ?? null;
  } catch {
    return null;
  }
}
