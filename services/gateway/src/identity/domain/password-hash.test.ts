import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, type PasswordHashParams, schemeOf, verifyPassword } from './password-hash.js';

const bcrypt4: PasswordHashParams = {
  scheme: 'bcrypt',
  bcryptCost: 4,
  argon2: { memoryKib: 1024, timeCost: 1, parallelism: 1 },
};
const argon2Small: PasswordHashParams = { ...bcrypt4, scheme: 'argon2id' };
const PASSWORD = 'correct horse battery staple';

describe('password hashing', () => {
  it('makes salted bcrypt hashes with the configured cost that verify', async () => {
    const a = await hashPassword(PASSWORD, bcrypt4);
    const b = await hashPassword(PASSWORD, bcrypt4);
    expect(a).toMatch(/^\$2b\$04\$/);
    expect(a).not.toBe(b);
    expect(schemeOf(a)).toBe('bcrypt');
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
    expect(await verifyPassword('wrong horse battery staple', a)).toBe(false);
  });

  it('makes argon2id hashes with the configured parameters that verify', async () => {
    const h = await hashPassword(PASSWORD, argon2Small);
    expect(h).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(schemeOf(h)).toBe('argon2id');
    expect(await verifyPassword(PASSWORD, h)).toBe(true);
    expect(await verifyPassword('wrong horse battery staple', h)).toBe(false);
  });

  it('verifies hashes of either scheme whatever the configured one', async () => {
    const b = await hashPassword(PASSWORD, bcrypt4);
    const a = await hashPassword(PASSWORD, argon2Small);
    expect(await verifyPassword(PASSWORD, b)).toBe(true);
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
  });

  it('never verifies an unknown or malformed hash', async () => {
    expect(await verifyPassword(PASSWORD, 'plaintext')).toBe(false);
    expect(await verifyPassword(PASSWORD, '$2b$04$tooshort')).toBe(false);
    expect(await verifyPassword(PASSWORD, '$argon2id$v=19$m=1024,t=1,p=1$bad')).toBe(false);
    expect(schemeOf('$1$md5crypt')).toBeNull();
  });

  it('asks for a new hash when the scheme or its cost changes', async () => {
    const b4 = await hashPassword(PASSWORD, bcrypt4);
    expect(needsRehash(b4, bcrypt4)).toBe(false);
    expect(needsRehash(b4, { ...bcrypt4, bcryptCost: 5 })).toBe(true);
    expect(needsRehash(b4, argon2Small)).toBe(true);
    const a = await hashPassword(PASSWORD, argon2Small);
    expect(needsRehash(a, argon2Small)).toBe(false);
    expect(needsRehash(a, { ...argon2Small, argon2: { memoryKib: 2048, timeCost: 1, parallelism: 1 } })).toBe(true);
    expect(needsRehash(a, bcrypt4)).toBe(true);
  });
});
