import { mediaFileDeleted, mediaFileStored } from '@rootline/contracts/media';
import { publicEvents } from '@rootline/contracts/transparency';
import { describe, expect, it } from 'vitest';
import { mayAttach, mayBeListingImage, mayChange, readAccess } from './access.js';

const alice = { id: 'usr_alice', role: 'USER' as const };
const bob = { id: 'usr_bob', role: 'USER' as const };
const admin = { id: 'usr_admin', role: 'ADMIN' as const };
const file = (entityType: string | null, entityId: string | null = entityType ? 'x_1' : null) => ({
  ownerId: alice.id,
  kind: 'image',
  entityType,
  entityId,
});

describe('readAccess', () => {
  it('lets the owner and an ADMIN read any file', () => {
    for (const t of [null, 'plant', 'listing', 'farm', 'user']) {
      expect(readAccess(file(t), alice)).toBe('allow');
      expect(readAccess(file(t), admin)).toBe('allow');
    }
  });
  it('asks the record of a plant, listing or farm file for anyone else', () => {
    for (const t of ['plant', 'listing', 'farm']) expect(readAccess(file(t), bob)).toBe('ask-record');
  });
  it('refuses an unlinked file and a profile photo to anyone else, and every file without a caller', () => {
    expect(readAccess(file(null), bob)).toBe('deny');
    expect(readAccess(file('user', alice.id), bob)).toBe('deny');
    expect(readAccess(file('plant'), undefined)).toBe('deny');
  });
});

describe('mayBeListingImage', () => {
  it('asks the listings about an image for a signed-in caller only', () => {
    expect(mayBeListingImage(file(null), bob)).toBe(true);
    expect(mayBeListingImage({ ...file(null), kind: 'document' }, bob)).toBe(false);
    expect(mayBeListingImage(file(null), undefined)).toBe(false);
  });
});

describe('mayChange', () => {
  it('lets only the owner and an ADMIN act on a file, readable or not', () => {
    for (const t of [null, 'plant', 'listing']) {
      expect(mayChange(file(t), alice)).toBe(true);
      expect(mayChange(file(t), admin)).toBe(true);
      expect(mayChange(file(t), bob)).toBe(false);
      expect(mayChange(file(t), undefined)).toBe(false);
    }
  });
});

describe('mayAttach', () => {
  it('attaches to the owner’s own record, or for an ADMIN', () => {
    expect(mayAttach('listing', alice.id, alice.id, alice)).toBe(true);
    expect(mayAttach('farm', alice.id, bob.id, bob)).toBe(false);
    expect(mayAttach('plant', alice.id, admin.id, admin)).toBe(true);
  });
  it('attaches to a user only oneself, even for an ADMIN', () => {
    expect(mayAttach('user', alice.id, alice.id, alice)).toBe(true);
    expect(mayAttach('user', alice.id, admin.id, admin)).toBe(false);
  });
});

describe('file events', () => {
  it('keeps the ids, owners and records of files out of the public event history', () => {
    const subjects = publicEvents().map((e) => e.subject);
    expect(subjects).not.toContain(mediaFileStored.subject);
    expect(subjects).not.toContain(mediaFileDeleted.subject);
    expect(subjects.filter((s) => s.startsWith('evt.media.'))).toEqual([]);
  });
});
