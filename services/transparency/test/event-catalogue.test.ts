import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EVENT_CATALOGUE, renderEventCatalogue } from '../src/domain/event-catalogue.js';

// The committed catalogue is read from disk, so this check lives here rather than beside the pure renderer.
describe(EVENT_CATALOGUE, () => {
  it('matches the contracts (regenerate: pnpm --filter @rootline/transparency docs:events)', async () => {
    const file = await readFile(new URL(`../../../${EVENT_CATALOGUE}`, import.meta.url), 'utf8');
    expect(file).toBe(renderEventCatalogue());
  });
});
