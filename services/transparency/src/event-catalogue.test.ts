import { readFile } from 'node:fs/promises';
import { publicEvents } from '@rootline/contracts';
import { describe, expect, it } from 'vitest';
import { EVENT_CATALOGUE, renderEventCatalogue } from './event-catalogue.js';

describe(EVENT_CATALOGUE, () => {
  it('matches the contracts (regenerate: pnpm --filter @rootline/transparency docs:events)', async () => {
    const file = await readFile(new URL(`../../../${EVENT_CATALOGUE}`, import.meta.url), 'utf8');
    expect(file).toBe(renderEventCatalogue());
  });

  it('documents every public kind with each field of its data', () => {
    const doc = renderEventCatalogue();
    expect(publicEvents().length).toBeGreaterThan(5);
    for (const e of publicEvents()) expect(doc).toContain(`## ${e.kind}\n\nDomain event \`${e.subject}\`.`);
    expect(doc).toContain('## plant.registered');
    expect(doc).toMatch(/\| `plantId` +\| string +\|/);
    expect(doc).toMatch(/\| `reason` +\| `rejected` \\\| `sold-out` +\|/);
  });
});
