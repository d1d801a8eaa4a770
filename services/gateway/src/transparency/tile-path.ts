import { TILE_WIDTH } from '@rootline/contracts';

/** c2sp.org/tlog-tiles paths: `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`. */

/** The path elements of a tile index: zero-padded groups of three digits, all but the last prefixed with `x`. */
export function tileIndexPath(index: number): string {
  const groups: string[] = [];
  let n = index;
  do {
    groups.unshift(String(n % 1000).padStart(3, '0'));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/** A tile path after `tile/`: `<L>/<N>[.p/<W>]` or `entries/<N>[.p/<W>]`; undefined when malformed. */
export function parseTilePath(
  path: string,
): { kind: 'hashes' | 'entries'; level: number; index: number; width: number } | undefined {
  const m = /^(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*)([0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/.exec(path);
  if (!m) return undefined;
  const level = m[1] === 'entries' ? 0 : Number(m[1]);
  const width = m[4] ? Number(m[4]) : TILE_WIDTH;
  const digits = `${(m[2] as string).replaceAll('x', '').replaceAll('/', '')}${m[3]}`;
  // No leading zero groups: each index has one path.
  if (digits.length > 3 && digits.startsWith('000')) return undefined;
  if (level > 63 || (m[4] !== undefined && width >= TILE_WIDTH)) return undefined;
  return { kind: m[1] === 'entries' ? 'entries' : 'hashes', level, index: Number(digits), width };
}
