/**
 * The path to send the browser to after a third-party sign-in, if it is safe: a path on this site (starting
 * with one `/`), never another origin (`//evil.example`, `/\evil.example`, `https://…`), so the sign-in
 * routes cannot be used as an open redirect. Returns null when unsafe.
 */
export function safeReturnPath(value: string | undefined): string | null {
  if (value === undefined || value === '') return '/';
  if (value.length > 2000 || !value.startsWith('/')) return null;
  if (value.startsWith('//') || value.startsWith('/\\')) return null;
  // Control characters and backslashes are read differently by browsers; refuse them outright.
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || ch === '\\') return null;
  }
  return value;
}
