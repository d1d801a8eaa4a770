import { describe, expect, it } from 'vitest';
import { DISTANT_OFFSPRING_KM, detectAnomalies, type LinkPlant } from './anomalies.js';

const parent: LinkPlant = {
  id: 'plt_parent',
  parentId: null,
  generation: 2,
  registeredAt: '2026-01-01T10:00:00.000Z',
  latitude: 52.37,
  longitude: 4.89,
};
const child = (over: Partial<LinkPlant> = {}): LinkPlant => ({
  id: 'plt_child',
  parentId: 'plt_parent',
  generation: 3,
  registeredAt: '2026-01-02T10:00:00.000Z',
  latitude: 52.09,
  longitude: 5.12,
  ...over,
});

describe('detectAnomalies', () => {
  it('finds nothing in a plausible parent and child', () => {
    expect(detectAnomalies(child(), parent)).toEqual([]);
    expect(detectAnomalies({ ...parent, generation: 0 }, undefined)).toEqual([]);
  });

  it('flags a child registered before its parent', () => {
    expect(detectAnomalies(child({ registeredAt: '2025-12-31T10:00:00.000Z' }), parent)).toEqual([
      {
        kind: 'child-before-parent',
        plantId: 'plt_child',
        parentId: 'plt_parent',
        reason:
          'Plant plt_child was registered at 2025-12-31T10:00:00.000Z, before its parent plt_parent (2026-01-01T10:00:00.000Z)',
      },
    ]);
  });

  it('flags a generation that is not the parent’s + 1, and a root that is not generation 0', () => {
    expect(detectAnomalies(child({ generation: 7 }), parent).map((f) => f.kind)).toEqual(['generation-jump']);
    expect(detectAnomalies(child({ generation: 2 }), parent)[0]?.reason).toContain('expected 3');
    expect(detectAnomalies({ ...parent, generation: 4 }, undefined)).toMatchObject([
      { kind: 'generation-jump', plantId: 'plt_parent', parentId: null },
    ]);
  });

  it(`flags offspring more than ${DISTANT_OFFSPRING_KM} km from its parent, unless a location is hidden`, () => {
    const farAway = child({ latitude: 40.71, longitude: -74.0 });
    expect(detectAnomalies(farAway, parent)).toMatchObject([
      { kind: 'distant-offspring', plantId: 'plt_child', parentId: 'plt_parent' },
    ]);
    expect(detectAnomalies(farAway, parent)[0]?.reason).toMatch(/is 58\d\d km from its parent plt_parent/);
    expect(detectAnomalies(child({ latitude: null, longitude: null }), parent)).toEqual([]);
  });

  it('flags a parent id that names no plant, and nothing else then', () => {
    expect(detectAnomalies(child({ generation: 9 }), undefined)).toEqual([
      {
        kind: 'orphaned-parent',
        plantId: 'plt_child',
        parentId: null,
        reason: 'Plant plt_child names parent plt_parent, which does not exist',
      },
    ]);
  });

  it('reports every rule a link breaks', () => {
    const kinds = detectAnomalies(
      child({ generation: 9, registeredAt: '2020-01-01T00:00:00.000Z', latitude: -33.9, longitude: 151.2 }),
      parent,
    ).map((f) => f.kind);
    expect(kinds).toEqual(['child-before-parent', 'generation-jump', 'distant-offspring']);
  });
});
