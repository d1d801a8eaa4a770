/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, numbers as JavaScript prints them.
 * The same value always gives the same bytes, so payload hashes can be recomputed anywhere.
 *
 * It runs once per ledger transaction, so it builds the text in one pass (no entry arrays, no mapped and joined
 * copies) and sorts only the keys of an object that are out of order (payloads usually arrive sorted). The bytes
 * are those of the plain recursive form it replaced, which canonical-json.test.ts keeps as the reference, down
 * to its oddities (a Date or Map is `{}`, a hole in an array is an empty slot).
 *
 * It is not replaced by RFC 8785 (`canonicalize`), which gives the same bytes for every JSON value with well-formed
 * strings but refuses a lone surrogate (`"\ud800"`, which a bus client may send in a payload and the ledger has
 * always recorded), so the ledger would refuse payloads it records today (ADR 168, canonical-json.rfc8785.test.ts).
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no representation for non-finite numbers');
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? arrayJson(value) : objectJson(value as Record<string, unknown>);
  }
  throw new TypeError(`canonical JSON cannot encode a ${typeof value}`);
}

function arrayJson(value: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < value.length; i++) {
    if (i > 0) out += ',';
    // A hole stays empty, as `map` and `join` left it; an undefined element is null.
    if (!(i in value)) continue;
    const v = value[i];
    out += v === undefined ? 'null' : canonicalJson(v);
  }
  return `${out}]`;
}

function objectJson(value: Record<string, unknown>): string {
  const keys = Object.keys(value);
  // The default sort compares strings by UTF-16 code units, as `<` does.
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  }
  let out = '{';
  for (const key of keys) {
    const v = value[key];
    if (v === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}
