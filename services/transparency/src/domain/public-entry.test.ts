import { userRoleChanged } from '@rootline/contracts/auth';
import { listingPublished } from '@rootline/contracts/marketplace';
import { plantRegistered } from '@rootline/contracts/plants';
import type { AuditEntry } from '@rootline/contracts/transparency';
import { describe, expect, it } from 'vitest';
import { publicEntryOf } from './public-entry.js';

const base: AuditEntry = {
  index: 3,
  prevHash: 'a'.repeat(64),
  source: 'event',
  subject: plantRegistered.subject,
  kind: 'plant.registered',
  eventId: 'evt_1',
  actor: 'usr_alice',
  entity: 'plt_1',
  occurredAt: '2026-01-01T10:00:00.000Z',
  recordedAt: '2026-01-01T10:00:01.000Z',
  reason: null,
  data: { plantId: 'plt_1', commonName: 'Tomato', ownerId: 'usr_alice' },
};
const leaf = 'b'.repeat(64);

describe('the public form of an audit entry', () => {
  it('shows a public event whole when its actor is named in its public payload', () => {
    const p = publicEntryOf(base, leaf, plantRegistered);
    expect(p).toMatchObject({ index: 3, leafHash: leaf, kind: 'plant.registered', entity: 'plt_1', entry: base });
  });

  it('keeps the entry back when its actor is not public', () => {
    const p = publicEntryOf({ ...base, data: { plantId: 'plt_1', commonName: 'Tomato' } }, leaf, plantRegistered);
    expect(p.entry).toBeNull();
    expect(p.data).toEqual({ plantId: 'plt_1', commonName: 'Tomato' });
  });

  it('shows only the public fields of a payload that has private ones, and not the entry', () => {
    const def = { ...listingPublished, publicFields: ['listingId', 'title'] };
    const entry = { ...base, subject: def.subject, actor: null, data: { listingId: 'lst_1', title: 'x', note: 'y' } };
    const p = publicEntryOf(entry, leaf, def);
    expect(p.data).toEqual({ listingId: 'lst_1', title: 'x' });
    expect(p.entry).toBeNull();
  });

  it('shows nothing of internal events and admin entries but their kind, times and hashes', () => {
    const internal = publicEntryOf(
      { ...base, subject: userRoleChanged.subject, kind: userRoleChanged.subject, entity: 'usr_bob' },
      leaf,
      userRoleChanged,
    );
    expect(internal).toMatchObject({ kind: userRoleChanged.subject, entity: null, data: null, entry: null });
    const admin = publicEntryOf({ ...base, source: 'admin', reason: 'why', subject: 'admin.x' }, leaf, undefined);
    expect(admin).toMatchObject({ kind: 'admin', entity: null, data: null, entry: null });
  });
});
