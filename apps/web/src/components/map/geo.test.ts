import { describe, expect, it } from 'vitest';
import {
  boundsAround,
  describeView,
  extendBounds,
  formatPoint,
  labelPopulationAt,
  pointAt,
  project,
  type Town,
  townsToLabel,
  unproject,
  wrapLongitude,
} from './geo';
import towns from './towns.json';

const LYON = { lat: 45.75, lon: 4.85 };

describe('Web Mercator', () => {
  it('puts the world in a square of 256 × 2^zoom pixels, the equator and Greenwich in its middle', () => {
    expect(project({ lat: 0, lon: 0 }, 0)).toEqual({ x: 128, y: 128 });
    expect(project({ lat: 0, lon: -180 }, 2)).toEqual({ x: 0, y: 512 });
    const p = project({ lat: 85.0511287798, lon: 180 }, 1);
    expect(p.x).toBeCloseTo(512, 6);
    expect(p.y).toBeCloseTo(0, 4);
  });

  it('matches the tile numbers of a tile server (Lyon is tile 8/131/91 on OpenStreetMap)', () => {
    const p = project(LYON, 8);
    expect([Math.floor(p.x / 256), Math.floor(p.y / 256)]).toEqual([131, 91]);
  });

  it('unprojects what it projects', () => {
    for (const point of [LYON, { lat: -33.87, lon: 151.21 }, { lat: 64.15, lon: -21.94 }]) {
      const back = unproject(project(point, 11), 11);
      expect(back.lat).toBeCloseTo(point.lat, 9);
      expect(back.lon).toBeCloseTo(point.lon, 9);
    }
  });

  // The report: "a click at the map's centre gave 20.4° N 0° E". The first view is centred on 20° N (more land than
  // sea in sight), so a click there rightly gives about 20° N; a click at the centre of any view gives its centre.
  it('picks the centre of the view for a click at the centre of the map, at any latitude', () => {
    const size = { width: 640, height: 460 };
    for (const [center, zoom] of [
      [{ lat: 20, lon: 0 }, 2],
      [LYON, 10],
      [{ lat: 69.65, lon: 18.96 }, 6],
      [{ lat: -45.87, lon: 170.5 }, 4],
    ] as const) {
      const picked = pointAt(center, zoom, size, { x: 320, y: 230 });
      expect(picked.lat).toBeCloseTo(center.lat, 9);
      expect(picked.lon).toBeCloseTo(center.lon, 9);
    }
  });

  it('gives points north of the centre above it, more degrees a pixel near the equator than near the poles', () => {
    const size = { width: 400, height: 400 };
    const up = pointAt({ lat: 0, lon: 0 }, 3, size, { x: 200, y: 100 });
    const upNorth = pointAt({ lat: 60, lon: 0 }, 3, size, { x: 200, y: 100 });
    expect(up.lat).toBeGreaterThan(0);
    expect(up.lat).toBeGreaterThan(upNorth.lat - 60);
  });

  it('wraps longitudes past the antimeridian', () => {
    expect(wrapLongitude(190)).toBeCloseTo(-170);
    expect(wrapLongitude(-540)).toBeCloseTo(-180);
    const east = pointAt({ lat: 0, lon: 179 }, 5, { width: 400, height: 400 }, { x: 390, y: 200 });
    expect(east.lon).toBeLessThan(-170);
  });
});

describe('areas around a point', () => {
  it('holds a radius: 25 km is about 0.22° of latitude, more degrees of longitude away from the equator', () => {
    const b = boundsAround(LYON, 25);
    expect(b.north - LYON.lat).toBeCloseTo(0.2248, 3);
    expect(LYON.lat - b.south).toBeCloseTo(0.2248, 3);
    expect(b.east - LYON.lon).toBeCloseTo(0.2248 / Math.cos((LYON.lat * Math.PI) / 180), 3);
  });

  it('stays on the map near a pole', () => {
    const b = boundsAround({ lat: 89.9, lon: 0 }, 100);
    expect(b.north).toBeLessThanOrEqual(85.0511287798);
    expect(b.east - b.west).toBeLessThanOrEqual(360);
  });

  it('grows to hold results outside the radius', () => {
    const b = extendBounds(boundsAround(LYON, 10), [{ lat: 48.86, lon: 2.35 }]);
    expect(b.north).toBe(48.86);
    expect(b.west).toBe(2.35);
    expect(b.south).toBeLessThan(LYON.lat);
  });
});

describe('town labels', () => {
  const all = towns as unknown as Town[];
  const world = { south: -85, west: -180, north: 85, east: 180 };

  it('labels fewer people as one zooms in', () => {
    const mins = [2, 3, 4, 5, 6, 7, 8, 12].map(labelPopulationAt);
    for (let i = 1; i < mins.length; i++) expect(mins[i]).toBeLessThanOrEqual(mins[i - 1]!);
    expect(labelPopulationAt(12)).toBe(50_000);
  });

  it('shows the largest towns of the world first, none of them overlapping', () => {
    const labels = townsToLabel(all, world, 2);
    expect(labels.length).toBeGreaterThan(3);
    expect(labels.every((t) => t[3] >= 10_000_000)).toBe(true);
    expect(labels[0]![0]).toBe('Shanghai');
    const boxes = labels.map((t) => project({ lat: t[1], lon: t[2] }, 2));
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const apart = Math.abs(boxes[i]!.x - boxes[j]!.x) >= 110 || Math.abs(boxes[i]!.y - boxes[j]!.y) >= 22;
        expect(apart).toBe(true);
      }
    }
  });

  it('names Lyon and its larger neighbours around Lyon, not Paris', () => {
    const names = townsToLabel(all, boundsAround(LYON, 25), 10).map((t) => t[0]);
    expect(names[0]).toBe('Lyon');
    expect(names).toContain('Vénissieux');
    expect(names).not.toContain('Paris');
    // Villeurbanne's label would cover Lyon's until the map is close enough to part them.
    expect(names).not.toContain('Villeurbanne');
    expect(townsToLabel(all, boundsAround(LYON, 5), 12).map((t) => t[0])).toContain('Villeurbanne');
    // Zoomed out to the country, Lyon is still there, and Villeurbanne (next door, smaller) is left out.
    const france = townsToLabel(all, { south: 42, west: -5, north: 51, east: 8 }, 6).map((t) => t[0]);
    expect(france).toEqual(expect.arrayContaining(['Paris', 'Lyon', 'Marseille']));
    expect(france).not.toContain('Villeurbanne');
  });

  it('keeps towns across the antimeridian in a view that crosses it', () => {
    const names = townsToLabel(all, { south: -50, west: 160, north: -30, east: 190 }, 6).map((t) => t[0]);
    expect(names).toContain('Auckland');
  });
});

describe('the view in words', () => {
  it('names the place and the radius', () => {
    expect(describeView({ ...LYON, name: 'Lyon' }, 25)).toBe('Map centred on Lyon, 25 km');
    expect(describeView({ lat: -33.8688, lon: -70.5 }, 12.5)).toBe('Map centred on 33.87° S, 70.50° W, 12.5 km');
    expect(formatPoint({ lat: 20.4, lon: 0 })).toBe('20.40° N, 0.00° E');
  });
});
