import type { Location } from '@rootline/contracts/common';

/**
 * SGLNs of places (ADR 314): an operator names a place by its GS1 SGLN (`EPCIS_SGLNS`: `<sgln>=<lat>,<lon>` pairs),
 * and EPCIS answers name an event at that point by the SGLN instead of its geo URI. Pure.
 */

/** An SGLN in its EPC URI form: company prefix and location reference (12 digits together), extension. */
export const SGLN = /^urn:epc:id:sgln:(\d{6,12})\.(\d{0,6})\.([!%-?A-Z_a-z"]{1,20})$/;

export function isSgln(uri: string): boolean {
  const m = SGLN.exec(uri);
  return m !== null && (m[1] as string).length + (m[2] as string).length === 12;
}

/** The SGLNs an operator gave places, both ways. */
export interface EpcisPlaces {
  /** The SGLN of the place at exactly this point, if one is named. */
  sglnOf(point: { latitude: number; longitude: number }): string | undefined;
  /** The point of a named SGLN. */
  pointOf(sgln: string): Location | undefined;
}

const key = (p: { latitude: number; longitude: number }) => `${Number(p.latitude)},${Number(p.longitude)}`;

const ENTRY = /^(urn:epc:id:sgln:[^=\s]+)=(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/;

/**
 * Reads the setting: entries separated by spaces, each `<sgln>=<lat>,<lon>`. Throws on a malformed entry, an SGLN or
 * a point given twice, or a point out of range (the service does not start with a setting it cannot read).
 */
export function parseEpcisSglns(text: string): EpcisPlaces {
  const bySgln = new Map<string, Location>();
  const byPoint = new Map<string, string>();
  for (const entry of text.split(/\s+/).filter((x) => x.length > 0)) {
    const m = ENTRY.exec(entry);
    if (!m || !isSgln(m[1] as string)) throw new Error(`EPCIS_SGLNS: ${entry} is not <sgln>=<lat>,<lon>`);
    const sgln = m[1] as string;
    const point = { latitude: Number(m[2]), longitude: Number(m[3]) };
    if (Math.abs(point.latitude) > 90 || Math.abs(point.longitude) > 180) {
      throw new Error(`EPCIS_SGLNS: ${entry}: the point is out of range`);
    }
    if (bySgln.has(sgln) || byPoint.has(key(point))) throw new Error(`EPCIS_SGLNS: ${entry} is given twice`);
    bySgln.set(sgln, point);
    byPoint.set(key(point), sgln);
  }
  return {
    sglnOf: (point) => byPoint.get(key(point)),
    pointOf: (sgln) => bySgln.get(sgln),
  };
}

/** No SGLNs named. */
export const NO_SGLNS: EpcisPlaces = parseEpcisSglns('');
