import { describe, expect, it } from 'vitest';
import { subjectMatches } from './subject.js';

describe('subjectMatches', () => {
  it.each([
    ['evt.plants.>', 'evt.plants.plant.registered', true],
    ['evt.plants.>', 'evt.plants.x', true],
    ['evt.plants.>', 'evt.plants', false],
    ['evt.plants.>', 'evt.plantsx.plant.registered', false],
    ['evt.*.plant.registered', 'evt.plants.plant.registered', true],
    ['evt.*.plant.registered', 'evt.plants.extra.plant.registered', false],
    ['evt.*', 'evt.plants.x', false],
    ['a.b.c', 'a.b.c', true],
    ['a.b.c', 'a.b', false],
    ['a.b', 'a.b.c', false],
    ['>', 'anything.at.all', true],
  ])('%s ~ %s → %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});
