/**
 * Which API answers the service worker may keep for offline use (ADR 226): a successful GET whose Cache-Control
 * says `public` and nothing that forbids keeping it. The gateway marks a public read `public` only when it was
 * answered to nobody in particular; an answer that names the caller is `private`, and every other API answer says
 * nothing, so it is never kept.
 */
export function isKeepablePublicAnswer(status: number, cacheControl: string | null): boolean {
  if (status !== 200 || !cacheControl) return false;
  const directives = new Set(
    cacheControl
      .toLowerCase()
      .split(',')
      .map((d) => d.trim().split('=')[0]),
  );
  return directives.has('public') && !directives.has('private') && !directives.has('no-store');
}

/** The name of the runtime cache of public API answers (cleared at sign-out with every other runtime cache). */
export const PUBLIC_API_CACHE = 'rootline-public-api';

/** At most this many public answers are kept, each for at most a week (the least recently used go first). */
export const PUBLIC_API_LIMITS = { maxEntries: 80, maxAgeSeconds: 7 * 24 * 60 * 60 } as const;
