import { generateKeyPairSync } from 'node:crypto';
import type { Certificate } from '@rootline/contracts/transparency-certificates';
import { describe, expect, it } from 'vitest';
import { certificateBytes, signCertificate, verifyCertificate } from './certificate.js';

const cert: Certificate = {
  type: 'rootline.certificate-of-authenticity',
  version: 1,
  issuedAt: '2026-11-23T08:00:00.000Z',
  verificationUrl: 'https://rootline.example/api/transport/trace/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  plant: {
    id: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    commonName: 'Tomato',
    scientificName: null,
    generation: 0,
    parentId: null,
    propagationType: null,
    privacyLevel: 'city',
    location: { latitude: 52.35, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
    registeredAt: '2026-11-23T07:59:00.000Z',
  },
  lineage: { ancestors: 0, rootId: null, children: 0 },
  block: {
    index: 1,
    hash: 'a'.repeat(64),
    timestamp: '2026-11-23T07:59:01.000Z',
    previousHash: '0'.repeat(64),
    merkleRoot: 'b'.repeat(64),
    difficulty: 8,
    nonce: 12,
  },
  ledgerProof: {
    txId: 'tx_1',
    payload: '{}',
    leaf: 'tx_1|plant.register|x|t',
    leafIndex: 0,
    treeSize: 1,
    auditPath: [],
  },
  auditLog: null,
  keyId: 'c'.repeat(64),
};

describe('certificate signature', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');

  it('signs the canonical JSON: keys sorted, no white space', () => {
    const text = certificateBytes(cert).toString('utf8');
    expect(text.startsWith('{"auditLog":null,"block":{"difficulty":8,')).toBe(true);
    expect(text).not.toContain(' ');
  });

  it('verifies, and fails once any field changes', () => {
    const signed = signCertificate(cert, privateKey);
    expect(verifyCertificate(signed, publicKey)).toBe(true);
    const forged = { ...signed, certificate: { ...cert, plant: { ...cert.plant, commonName: 'Basil' } } };
    expect(verifyCertificate(forged, publicKey)).toBe(false);
  });
});
