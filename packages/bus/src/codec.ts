import type { Headers } from './types.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A value already written as JSON text (a reply serialised by its schema at the source): sent as it is. The text
 * must be valid JSON; whoever builds it answers for that.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * Encodes a value as JSON bytes, the one wire format of both buses. Throws on what JSON cannot carry
 * at the top level (undefined, a function, a symbol) and on BigInt or cycles, so a call fails at the
 * sender instead of delivering something else.
 */
export function encodeJson(value: unknown): Uint8Array {
  if (value instanceof JsonText) return encoder.encode(value.text);
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`a ${typeof value} cannot be sent on the bus: it has no JSON form`);
  return encoder.encode(text);
}

/** Decodes JSON bytes; an empty body (a bare `nats req` with no data) reads as null. */
export function decodeJson(bytes: Uint8Array): unknown {
  return bytes.length === 0 ? null : JSON.parse(decoder.decode(bytes));
}

/** JSON bytes as text, not parsed; an empty body reads as `null`, as `decodeJson` has it. */
export function jsonText(bytes: Uint8Array): string {
  return bytes.length === 0 ? 'null' : decoder.decode(bytes);
}

/**
 * Checks and copies headers with the rules NATS applies (key characters 33–126 except `:`, no CR or LF in
 * a value, values trimmed), so the in-memory bus refuses and alters exactly what NATS would.
 */
export function copyHeaders(headers: Headers | undefined): Headers {
  const out: Headers = {};
  if (!headers) return out;
  for (const [key, value] of Object.entries(headers)) {
    if (key.length === 0 || !/^[!-9;-~]+$/.test(key)) throw new TypeError(`invalid header key "${key}"`);
    if (typeof value !== 'string') throw new TypeError(`header "${key}" must be a string`);
    if (/[\r\n]/.test(value)) throw new TypeError(`header "${key}" contains CR or LF`);
    out[key] = value.trim();
  }
  return out;
}
