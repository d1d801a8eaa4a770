import { RootlineError } from '@rootline/sdk';
import { COMMON } from './strings';

const S = COMMON.errors;
const R = COMMON.refusals;

/** A field error as the envelope names it (`body/email`, `querystring/q`, `readings.0.at`), in plain words. */
export interface FieldError {
  /** The field as the API named it. */
  field: string;
  /** Its path without the request part: `location.latitude`, `readings.0.at`. */
  path: string;
  /** What the person should do, in plain language, with no field path or id in it. */
  message: string;
}

/** The request parts a field path may start with; they mean nothing to a person. */
const PARTS = new Set(['body', 'querystring', 'query', 'params', 'header', 'headers', 'request']);

/** `body/location/latitude` or `newPlant.owner.name` → `location.latitude`, `newPlant.owner.name`. */
export function fieldPath(field: string): string {
  const segments = field.split(/[/.]/).filter(Boolean);
  while (segments.length > 1 && PARTS.has(segments[0] as string)) segments.shift();
  return segments.join('.');
}

/** A field's name as a person reads it: `commonName` → `Common name`, `readings.0.at` → `Time`. */
export function fieldLabel(field: string): string {
  const last =
    fieldPath(field)
      .split('.')
      .filter((s) => !/^\d+$/.test(s))
      .pop() ?? field;
  const known = S.label(last);
  if (known) return known;
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const sentence = (text: string) => {
  const t = text.trim().replace(/\s+/g, ' ');
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
};

/** Request-part paths and record ids (`body/token`, `usr_01H…`) are replaced by words a person knows. */
const withoutPaths = (text: string) =>
  text
    .replace(/\b(?:body|querystring|query|params|header|headers)(?:[/.][\w-]+)+/g, (m) => fieldLabel(m).toLowerCase())
    .replace(/\b(account|plant|listing|offer|farm|batch|zone|file) [a-z]{3}_[0-9A-Za-z]+/g, 'this $1')
    .replace(/\b[a-z]{3}_[0-9A-HJKMNP-TV-Z]{20,}\b/g, 'it');

/** Rules from a failure's wording to what the person should do; the first that matches wins. */
const RULES: readonly [RegExp, (m: RegExpMatchArray, allowed?: readonly unknown[]) => string][] = [
  [/^is required$|must have required property/i, () => S.required],
  [/^must NOT have fewer than (\d+) characters?$/i, (m) => (m[1] === '1' ? S.required : S.minLength(Number(m[1])))],
  [/^must NOT have more than (\d+) characters?$/i, (m) => S.maxLength(Number(m[1]))],
  [/^must NOT have fewer than (\d+) items?$/i, (m) => (m[1] === '1' ? S.minItemsOne : S.minItems(Number(m[1])))],
  [/^must NOT have more than (\d+) items?$/i, (m) => S.maxItems(Number(m[1]))],
  [/^must be (?:<=|at most) (\S+)$/, (m) => S.max(m[1] as string)],
  [/^must be at least (\S+)$/, (m) => S.min(m[1] as string)],
  [/^must be >= (.+)$/, (m) => S.min(m[1] as string)],
  [/^must be < (.+)$/, (m) => S.below(m[1] as string)],
  [/^must be > (.+)$/, (m) => S.above(m[1] as string)],
  [/^must be (integer|number|string|boolean|array)(,null)?$/, (m) => S.type(m[1] as string)],
  [/^must match format "([^"]+)"$/, (m) => S.format(m[1] as string)],
  [/^must match pattern "\^https\?:/, () => S.webAddress],
  [/^must match pattern "\^([a-z]{3})_\[/, (m) => S.idPrefix(m[1] as string)],
  [/^must match pattern "\^\\d\{4\}\(-/, () => S.partialDate],
  [/^must match pattern/, () => S.format('other')],
  [
    /must be equal to one of the allowed values/,
    (_m, allowed) => (allowed?.length ? S.oneOf(allowed.join(', ')) : S.oneOfOffered),
  ],
  [/^is not an accepted property$/, () => S.notAccepted],
  [/private, loopback or link-local|resolves to refused address/, () => S.privateAddress],
  [/is invalid, used or expired/, () => S.linkExpired],
  [/is not the name of account/, () => S.notAccountName],
  [/email.*already exists|already exists.*email/i, () => S.emailExists],
  [/^must be in the future$/, () => S.future],
  [/^must not be in the future$/, () => S.notFuture],
  [/^not a valid time$/, () => S.validTime],
];

/**
 * The message for a person of one validation failure: the JSON-schema wording of the gateway (`must be <= 90`,
 * `must NOT have fewer than 1 characters`, `must match format "email"`) and the services' own reasons, rewritten
 * as what to do, with no field path, no id and no jargon. `allowed` lists the values an enum accepts. A wording
 * no rule knows is shown as the API's words, marked as such, in a sentence of the reader's language.
 */
export function plainMessage(raw: string, allowed?: readonly unknown[]): string {
  const text = raw.trim().replace(/^[\w.[\]/-]+: /, '');
  return ruleFor(text, allowed) ?? R.detail(sentence(withoutPaths(text)));
}

/** The words of the first rule that matches a failure's wording, if one does. */
function ruleFor(text: string, allowed?: readonly unknown[]): string | undefined {
  for (const [pattern, say] of RULES) {
    const m = text.match(pattern);
    if (m) return say(m, allowed);
  }
  return undefined;
}

/** The objects of an answer's `error.details`: its list, or the one object. */
function detailList(error: RootlineError): RawIssue[] {
  const details = error.details;
  return Array.isArray(details) ? details : details && typeof details === 'object' ? [details as RawIssue] : [];
}

/**
 * The stable reason of a refusal (`details.reason`, or the first field's in a list: ADR 260), which the app words
 * in the reader's language.
 */
export function refusalReason(error: unknown): string | undefined {
  if (!(error instanceof RootlineError)) return undefined;
  const found = detailList(error).find((d) => typeof d?.reason === 'string');
  return found?.reason as string | undefined;
}

/** Codes whose general sentence says all a person can act on: their English message is for developers. */
const SELF_EXPLAINED = new Set([
  'RATE_LIMITED',
  'UNAVAILABLE',
  'INTERNAL',
  'PAYLOAD_TOO_LARGE',
  'HEADERS_TOO_LARGE',
  'METHOD_NOT_ALLOWED',
  'IDEMPOTENCY_KEY_REUSED',
]);

/**
 * A refusal in the reader's language: the words for its reason; else the words of a rule its message matches;
 * else the general sentence of its code, with the API's English message beside it as a detail (a reason this
 * version of the app does not know, or none), never the English message alone.
 */
function refusalMessage(error: RootlineError): string {
  const reason = refusalReason(error);
  const known = reason ? R.reason(reason) : undefined;
  if (known) return known;
  const rule = ruleFor(error.message.trim().replace(/^[\w.[\]/-]+: /, ''));
  if (rule) return rule;
  const general = R.code(error.code);
  if (SELF_EXPLAINED.has(error.code) || !error.message.trim()) return general;
  return `${general} ${R.detail(sentence(withoutPaths(error.message)))}`;
}

/** A `field: message` or `field message` the API wrote into its message when it gave no details. */
function fromMessage(message: string): { field: string; message: string } | null {
  const colon = message.match(/^([a-zA-Z][\w]*(?:[/.][\w]+)*): (.+)$/);
  if (colon) return { field: colon[1] as string, message: colon[2] as string };
  const path = message.match(/^((?:body|querystring|params|header)(?:\/[\w-]+)+) (.+)$/);
  if (path) return { field: path[1] as string, message: path[2] as string };
  return null;
}

interface RawIssue {
  field?: unknown;
  message?: unknown;
  allowed?: unknown;
  reason?: unknown;
}

/**
 * The field errors of an answer, in plain words: its `error.details` (an array of `{field, message?}` or one such
 * object), else a field its message starts with (`url: …`, `body/window …`).
 */
export function fieldErrors(error: unknown): FieldError[] {
  if (!(error instanceof RootlineError)) return [];
  const named = detailList(error).filter((d): d is RawIssue & { field: string } => typeof d?.field === 'string');
  const issues = named.length
    ? named.map((d) => {
        const own = typeof d.message === 'string' ? d.message : (fromMessage(error.message)?.message ?? error.message);
        const reason = typeof d.reason === 'string' ? R.reason(d.reason) : undefined;
        return { field: d.field, raw: own, allowed: Array.isArray(d.allowed) ? d.allowed : undefined, reason };
      })
    : (() => {
        const parsed = error.status === 400 ? fromMessage(error.message) : null;
        return parsed ? [{ field: parsed.field, raw: parsed.message, allowed: undefined, reason: undefined }] : [];
      })();
  return issues.map((i) => ({
    field: i.field,
    path: fieldPath(i.field),
    message: i.reason ?? plainMessage(i.raw, i.allowed),
  }));
}

/**
 * The message for one input, by its name in the request: `latitude` matches `body/location/latitude`,
 * `owner.name` matches `body/owner/name` and `newPlant.owner.name`.
 */
export function errorFor(error: unknown, name: string): string | undefined {
  const want = fieldPath(name);
  return fieldErrors(error).find((f) => f.path === want || f.path.endsWith(`.${want}`))?.message;
}

/** The error's message for a person: validation failures name their fields in words, never as paths. */
export function errorMessage(error: unknown): string {
  // A refusal other than a form's (a 403, a 409) is one sentence, even when it names the field it concerns.
  if (error instanceof RootlineError && error.code !== 'VALIDATION_ERROR') return refusalMessage(error);
  const fields = fieldErrors(error);
  if (fields.length) {
    const each = fields.map((f) => S.field(fieldLabel(f.field), f.message)).join(' ');
    return `${S.checkFields(fields.length)} ${each}`;
  }
  if (error instanceof RootlineError) return refusalMessage(error);
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Whether the API refused for want of a session. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof RootlineError && error.status === 401;
}

/** Whether the API asked to slow down (429 RATE_LIMITED). */
export function isRateLimited(error: unknown): boolean {
  return error instanceof RootlineError && error.status === 429;
}

/** Seconds to wait before asking again: the answer's `Retry-After`, else its `details.retryAfterSeconds`, else 5. */
export function retryAfterSeconds(error: unknown): number {
  if (!(error instanceof RootlineError)) return 5;
  const fromDetails = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  const seconds = error.retryAfterSeconds ?? (typeof fromDetails === 'number' ? fromDetails : 5);
  return Math.min(Math.max(seconds, 1), 120);
}
