import { publicEvents } from '@rootline/contracts';
import { describe, expect, it } from 'vitest';
import { EVENT_CATALOGUE, renderEventCatalogue } from './event-catalogue.js';

describe(EVENT_CATALOGUE, () => {
  it('documents every public kind with each field of its data', () => {
    const doc = renderEventCatalogue();
    expect(publicEvents().length).toBeGreaterThan(5);
    for (const e of publicEvents()) expect(doc).toContain(`## ${e.kind}\n\nDomain event \`${e.subject}\`.`);
    expect(doc).toContain('## plant.registered');
    expect(doc).toMatch(/\| `plantId` +\| string +\|/);
    expect(doc).toMatch(/\| `reason` +\| `rejected` \\\| `sold-out` +\|/);
  });
});
