/** Shortest accepted password, in characters (NIST SP 800-63B asks for at least 8; we ask a little more). */
export const MIN_PASSWORD_CHARS = 10;
/** bcrypt reads only the first 72 bytes; a longer password would be silently truncated, so it is refused. */
export const MAX_PASSWORD_BYTES = 72;

/**
 * Passwords of ten characters or more that lead every published list of leaked passwords. A short list on
 * purpose: the length rule already rules out the shorter favourites.
 */
const COMMON = new Set([
  '1234567890',
  '0123456789',
  '12345678910',
  '123456789a',
  '1q2w3e4r5t',
  '1qaz2wsx3edc',
  'qwertyuiop',
  'qwerty1234',
  'qwerty123456',
  'asdfghjkl1',
  'password12',
  'password123',
  'password1234',
  'passw0rd123',
  'iloveyou12',
  'iloveyou123',
  'letmein123',
  'welcome123',
  'administrator',
  'changeme123',
  'football123',
  'sunshine123',
  'princess123',
  'baseball123',
  'trustno1234',
  'abcdefghij',
  'abc1234567',
  'zaq12wsxcde',
  'rootline123',
]);

/**
 * Checks a new password against the policy: at least 10 characters and at most 72 bytes, not one repeated
 * character, not a common password, not the email address or its name part. Returns the first reason it
 * fails, or null when it passes. No composition rules: they push people to predictable patterns.
 */
export function passwordPolicyViolation(password: string, email?: string): string | null {
  if ([...password].length < MIN_PASSWORD_CHARS) return `must be at least ${MIN_PASSWORD_CHARS} characters long`;
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    return `must be at most ${MAX_PASSWORD_BYTES} bytes long (UTF-8)`;
  }
  if (new Set(password).size === 1) return 'must not be one repeated character';
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return 'is too common';
  if (email) {
    const address = email.trim().toLowerCase();
    const local = address.split('@')[0] ?? '';
    if (lower === address || (local.length >= 3 && lower === local)) return 'must not be the email address';
  }
  return null;
}
