import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new opaque id with a type prefix: `<prefix>_` + 26 Crockford base32 characters
 * (48-bit millisecond time, then 80 random bits), so ids sort by creation time.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let out = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out;
    t = Math.floor(t / 32);
  }
  const rnd = randomBytes(10);
  // 80 bits → 16 characters of 5 bits each.
  let acc = 0n;
  for (const b of rnd) acc = (acc << 8n) | BigInt(b);
  let tail = '';
  for (let i = 0; i < 16; i++) {
    tail = CROCKFORD[Number(acc & 31n)] + tail;
    acc >>= 5n;
  }
  return `${prefix}_${out}${tail}`;
}
