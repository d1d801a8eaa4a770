import type { AuditEntry } from '@rootline/contracts/transparency';
import { appendLeaf, type Frontier, frontierRoot } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import { createLogVerifier, entryBytes, entryHash } from './audit-entry.js';
import { entityOf } from './event-facts.js';

function log(n: number) {
  const rows: { index: number; leafHash: string; body: string }[] = [];
  let prev: string | null = null;
  let frontier: Frontier = [];
  for (let index = 0; index < n; index++) {
    const entry: AuditEntry = {
      index,
      prevHash: prev,
      source: 'event',
      subject: 'evt.plants.plant.registered',
      kind: 'plant.registered',
      eventId: `evt_${index}`,
      actor: 'usr_a',
      entity: `plt_${index}`,
      occurredAt: '2026-11-23T05:00:00.000Z',
      recordedAt: '2026-11-23T05:00:01.000Z',
      reason: null,
      data: { plantId: `plt_${index}`, commonName: 'Tomato' },
    };
    const hash = entryHash(entry);
    rows.push({ index, leafHash: hash, body: entryBytes(entry).toString('utf8') });
    frontier = appendLeaf(frontier, index, hash).frontier;
    prev = hash;
  }
  return { rows, root: frontierRoot(frontier) };
}

describe('audit entries', () => {
  it('are hashed as RFC 8785 canonical JSON: key order does not change the hash', () => {
    const a = log(1).rows[0]!;
    const reordered = JSON.parse(a.body) as Record<string, unknown>;
    const reversed = Object.fromEntries(Object.entries(reordered).reverse()) as AuditEntry;
    expect(entryHash(reversed)).toBe(a.leafHash);
    expect(a.body.startsWith('{"actor":"usr_a","data":{"commonName":"Tomato"')).toBe(true);
  });

  it('verify as a whole when untouched, with the root of the log', () => {
    const { rows, root } = log(9);
    const v = createLogVerifier();
    for (const r of rows) v.add(r);
    expect(v.result()).toEqual({ size: 9, computedRoot: root, problems: [] });
  });

  it('name the index of an entry whose content was changed', () => {
    const { rows, root } = log(9);
    rows[4] = { ...rows[4]!, body: rows[4]!.body.replace('Tomato', 'Potato') };
    const v = createLogVerifier();
    for (const r of rows) v.add(r);
    const result = v.result();
    expect(result.problems[0]).toEqual({ index: 4, problem: 'entry content does not match its stored leaf hash' });
    expect(result.problems[1]?.index).toBe(5);
    expect(result.computedRoot).not.toBe(root);
  });
});

describe('entityOf', () => {
  it('takes the first string property named …Id', () => {
    expect(entityOf({ commonName: 'x', plantId: 'plt_1', parentPlantId: 'plt_0' })).toBe('plt_1');
    expect(entityOf({ index: 3, hash: 'ab' })).toBeNull();
    expect(entityOf(null)).toBeNull();
  });

  it('takes the record the subject names, whatever the key order (JSONB reorders keys)', () => {
    const registered = { ownerId: 'usr_1', plantId: 'plt_1' };
    expect(entityOf(registered, 'evt.plants.plant.registered')).toBe('plt_1');
    const accepted = { buyerId: 'usr_b', listingId: 'lst_1', offerId: 'ofr_1', sellerId: 'usr_s' };
    expect(entityOf(accepted, 'evt.demand.offer.accepted')).toBe('ofr_1');
    expect(entityOf({ handlerId: 'usr_h', eventId: 'tev_1' }, 'evt.transport.event.recorded')).toBe('tev_1');
  });

  it('without the named record, skips user ids before falling back to them', () => {
    expect(entityOf({ ownerId: 'usr_1', farmId: 'frm_1' }, 'evt.farm.zone.added')).toBe('frm_1');
    expect(entityOf({ userId: 'usr_1' }, 'evt.gateway.user.registered')).toBe('usr_1');
  });
});
