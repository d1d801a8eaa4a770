import { describe, expect, it } from 'vitest';
import {
  boundingBox,
  destinationPoint,
  EARTH_RADIUS_KM,
  geoBand,
  haversineKm,
  normaliseLongitude,
  type Point,
  withoutTinyDegrees,
} from './geo.js';

const paris = { latitude: 48.8566, longitude: 2.3522 };
const london = { latitude: 51.5074, longitude: -0.1278 };

/** A seeded generator, so a failure can be replayed. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function inBox(p: Point, box: ReturnType<typeof boundingBox>): boolean {
  return (
    p.latitude >= box.minLat &&
    p.latitude <= box.maxLat &&
    box.lonRanges.some(([w, e]) => p.longitude >= w && p.longitude <= e) &&
    box.bands.includes(geoBand(p.latitude))
  );
}

describe('haversineKm', () => {
  it('measures Paris–London as 343.6 km, symmetrically', () => {
    expect(haversineKm(paris, london)).toBeCloseTo(343.557, 2);
    expect(haversineKm(london, paris)).toBe(haversineKm(paris, london));
  });

  it('is zero for one point and half the circumference for antipodes', () => {
    expect(haversineKm(paris, paris)).toBe(0);
    expect(haversineKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(
      Math.PI * EARTH_RADIUS_KM,
      6,
    );
  });

  it('measures across the antimeridian the short way', () => {
    expect(haversineKm({ latitude: 0, longitude: 179.9 }, { latitude: 0, longitude: -179.9 })).toBeCloseTo(22.24, 2);
  });
});

describe('destinationPoint', () => {
  it('lands at the requested distance, whatever the bearing', () => {
    const random = seeded(1);
    for (let i = 0; i < 500; i++) {
      const start = { latitude: -80 + 160 * random(), longitude: -180 + 360 * random() };
      const km = 500 * random();
      const end = destinationPoint(start, 2 * Math.PI * random(), km);
      expect(haversineKm(start, end)).toBeCloseTo(km, 6);
      expect(end.longitude).toBeGreaterThanOrEqual(-180);
      expect(end.longitude).toBeLessThan(180);
    }
  });

  it('goes north at bearing 0', () => {
    const end = destinationPoint({ latitude: 0, longitude: 10 }, 0, 111.195);
    expect(end.latitude).toBeCloseTo(1, 4);
    expect(end.longitude).toBeCloseTo(10, 9);
  });
});

describe('normaliseLongitude', () => {
  it('wraps into [-180, 180)', () => {
    expect(normaliseLongitude(190)).toBe(-170);
    expect(normaliseLongitude(-190)).toBe(170);
    expect(normaliseLongitude(180)).toBe(-180);
    expect(normaliseLongitude(12.5)).toBe(12.5);
  });
});

describe('boundingBox', () => {
  it('holds every point within the radius, including the extreme longitudes (random centres)', () => {
    const random = seeded(2);
    for (let i = 0; i < 300; i++) {
      const center = { latitude: -85 + 170 * random(), longitude: -180 + 360 * random() };
      const radius = 0.5 + 499.5 * random();
      const box = boundingBox(center, radius);
      for (let j = 0; j < 40; j++) {
        const p = destinationPoint(center, 2 * Math.PI * random(), radius * Math.sqrt(random()));
        expect(inBox(p, box)).toBe(true);
      }
      // The points of greatest longitude lie on the circle itself.
      for (const bearing of [Math.PI / 2, -Math.PI / 2]) {
        const cosP = Math.cos((center.latitude * Math.PI) / 180);
        const tangent = Math.acos(Math.tan(radius / EARTH_RADIUS_KM) * Math.tan((center.latitude * Math.PI) / 180));
        const edge = destinationPoint(center, bearing > 0 ? tangent : -tangent, radius * (1 - 1e-12));
        if (cosP > 0.1) expect(inBox(edge, box)).toBe(true);
      }
    }
  });

  it('is tight: its latitude span is the radius, its bands only those it touches', () => {
    const box = boundingBox({ latitude: 50, longitude: 10 }, 50);
    expect(box.maxLat - 50).toBeCloseTo(50 / 111.195, 6);
    expect(box.bands).toEqual([495, 496, 497, 498, 499, 500, 501, 502, 503, 504]);
    expect(box.lonRanges).toHaveLength(1);
    const [[west, east]] = box.lonRanges as [[number, number]];
    expect(10 - west).toBeCloseTo(east - 10, 9);
    expect(east - 10).toBeCloseTo(0.6993, 3);
  });

  it('splits at the antimeridian', () => {
    const box = boundingBox({ latitude: 0, longitude: 179.9 }, 50);
    expect(box.lonRanges).toHaveLength(2);
    expect(inBox({ latitude: 0, longitude: -179.9 }, box)).toBe(true);
    expect(inBox({ latitude: 0, longitude: 179.5 }, box)).toBe(true);
    expect(inBox({ latitude: 0, longitude: 0 }, box)).toBe(false);
  });

  it('spans every longitude when the circle reaches a pole', () => {
    const box = boundingBox({ latitude: 89.9, longitude: 0 }, 50);
    expect(box.lonRanges).toEqual([[-180, 180]]);
    expect(box.maxLat).toBe(90);
    expect(inBox({ latitude: 89.9, longitude: 180 }, box)).toBe(true);
  });
});

describe('withoutTinyDegrees (nearby at lat=1e-300 was a 500: PostgreSQL float underflow)', () => {
  it('sets coordinates nearer 0 than 1e-9 degrees to 0 and keeps every other value as it is', () => {
    expect(withoutTinyDegrees({ latitude: 1e-300, longitude: -1e-10 })).toEqual({ latitude: 0, longitude: 0 });
    expect(withoutTinyDegrees({ latitude: 52.3701, longitude: 1e-9 })).toEqual({ latitude: 52.3701, longitude: 1e-9 });
  });
});
