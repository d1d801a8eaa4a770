import { createHash, randomFillSync } from 'node:crypto';

// One call to the system's random source per 409 ids instead of one per id: on the hot path of every request.
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

function random10(): Buffer {
  if (poolOffset + 10 > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const bytes = POOL.subarray(poolOffset, poolOffset + 10);
  poolOffset += 10;
  return bytes;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new opaque id with a type prefix: `<prefix>_` + 26 Crockford base32 characters
 * (48-bit millisecond time `now`, then 80 random bits), so ids sort by creation time. Services pass their
 * clock's time (`ctx.clock`, or `ctx.newId`), so a test clock decides it too.
 */
export function newId(prefix: string, now: number): string {
  let out = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out;
    t = Math.floor(t / 32);
  }
  const rnd = random10();
  // 80 bits → 16 characters of 5 bits each, in two halves of 40 bits (exact in a double; no BigInt per id).
  return `${prefix}_${out}${base32of40(rnd, 0)}${base32of40(rnd, 5)}`;
}

/** Five bytes from `at`, as 8 Crockford base32 characters, most significant first. */
function base32of40(bytes: Buffer, at: number): string {
  let v = bytes[at]! * 2 ** 32 + ((bytes[at + 1]! << 24) >>> 0) + (bytes[at + 2]! << 16) + (bytes[at + 3]! << 8);
  v += bytes[at + 4]!;
  let s = '';
  for (let i = 0; i < 8; i++) {
    s = CROCKFORD[v % 32] + s;
    v = Math.floor(v / 32);
  }
  return s;
}

/**
 * The id a key names, in the shape of `newId` (`<prefix>_` + 26 Crockford base32 characters, from the first 130
 * bits of SHA-256 over prefix and key): the same key always gives the same id, so a retried request creates (or
 * finds) the same record. Such ids do not sort by creation time.
 */
export function idFromKey(prefix: string, key: string): string {
  const digest = createHash('sha256').update(`${prefix}\n${key}`).digest();
  let acc = 0n;
  for (const b of digest.subarray(0, 17)) acc = (acc << 8n) | BigInt(b);
  acc >>= 6n; // 136 bits → 130 bits = 26 characters
  let out = '';
  for (let i = 0; i < 26; i++) {
    out = CROCKFORD[Number(acc & 31n)] + out;
    acc >>= 5n;
  }
  return `${prefix}_${out}`;
}
