import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Certificate } from '@rootline/contracts';
import { appendLeaves, frontierRoot, inclusionRanges, leafHashHex, nodeKey, rangeHash } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import {
  makeTransaction,
  searchNonce,
  transactionLeafText,
  transactionProof,
  transactionsRoot,
} from '../../../services/chain-miner/src/domain/block.js';
import { entryBytes } from '../../../services/transparency/src/domain/audit-entry.js';
import { signCertificate } from '../../../services/transparency/src/domain/certificate.js';
import { keyIdOf, rawPublicKey, signTreeHead } from '../../../services/transparency/src/domain/tree-head.js';
import {
  auditEntryLeafHash,
  type SignedCertificate,
  verifyCertificate,
  verifyInclusion,
  verifyTreeHead,
} from '../src/index.js';

// Vectors come from the services' own code; the SDK's verifiers share none of it.

/** An audit log of `size` random entries, as the transparency service stores it, with a proof maker. */
function auditLog(size: number) {
  const hashes = Array.from({ length: size }, () => leafHashHex(randomBytes(40)));
  const { frontier, nodes } = appendLeaves([], 0, hashes);
  const stored = new Map(nodes.map((n) => [nodeKey(n), n.hash]));
  const rootHash = frontierRoot(frontier);
  const proof = (index: number) => ({
    index,
    treeSize: size,
    leafHash: hashes[index]!,
    rootHash,
    auditPath: inclusionRanges(index, size).map((r) => rangeHash(r, (ref) => stored.get(nodeKey(ref))!)),
  });
  return { hashes, rootHash, proof };
}

describe('verifyInclusion', () => {
  it('accepts every audit log proof of trees of 1 to 17 entries', async () => {
    for (let size = 1; size <= 17; size++) {
      const log = auditLog(size);
      for (let index = 0; index < size; index++) {
        expect(await verifyInclusion(log.proof(index)), `${index} of ${size}`).toEqual({ valid: true, problems: [] });
      }
    }
  });

  it('refuses a proof with a changed hash, index, size or root', async () => {
    // (A size that gives the leaf the same path, 12 here, leads to the same root: the signed tree head binds it.)
    const log = auditLog(11);
    const good = log.proof(6);
    const flipped = `${good.auditPath[1]!.slice(0, -1)}${good.auditPath[1]!.endsWith('0') ? '1' : '0'}`;
    const cases = [
      { ...good, auditPath: [good.auditPath[0]!, flipped, ...good.auditPath.slice(2)] },
      { ...good, index: 7 },
      { ...good, treeSize: 40 },
      { ...good, rootHash: log.hashes[0]! },
      { ...good, leafHash: log.hashes[5]! },
      { ...good, auditPath: good.auditPath.slice(1) },
      { ...good, auditPath: ['zz'] },
    ];
    for (const proof of cases) {
      const result = await verifyInclusion(proof);
      expect(result.valid).toBe(false);
      expect(result.problems.length).toBeGreaterThan(0);
    }
  });

  it("accepts the ledger's transaction proofs, the leaf given by its data", async () => {
    const txs = Array.from({ length: 7 }, (_, i) =>
      makeTransaction(`tx_${i}`, 'plant.registered', { plantId: `plt_${i}` }, '2026-01-02T03:04:05.000Z'),
    );
    const root = transactionsRoot(txs);
    for (let i = 0; i < txs.length; i++) {
      const { auditPath } = transactionProof(txs, i);
      const proof = { index: i, treeSize: txs.length, leaf: transactionLeafText(txs[i]!), auditPath, rootHash: root };
      expect((await verifyInclusion(proof)).valid).toBe(true);
      expect((await verifyInclusion({ ...proof, leaf: transactionLeafText(txs[(i + 1) % 7]!) })).valid).toBe(false);
    }
  });
});

/** A certificate the way the transparency service signs one, over a real ledger proof and audit log proof. */
function signedCertificate() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const plantId = 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD';
  const txs = [
    makeTransaction('tx_a', 'plant.registered', { plantId: 'plt_other' }, '2026-01-02T03:04:05.000Z'),
    makeTransaction('tx_b', 'plant.registered', { plantId, commonName: 'Basil' }, '2026-01-02T03:04:06.000Z'),
    makeTransaction('tx_c', 'plant.cloned', { plantId: 'plt_third' }, '2026-01-02T03:04:07.000Z'),
  ];
  const header = {
    index: 4,
    timestamp: '2026-01-02T03:05:00.000Z',
    previousHash: 'ab'.repeat(32),
    merkleRoot: transactionsRoot(txs),
    difficulty: 8,
  };
  const mined = searchNonce(header, 0, 1_000_000)!;
  const log = auditLog(9);
  const audit = log.proof(5);
  const timestampMs = Date.parse('2026-01-02T03:06:00.000Z');
  const certificate: Certificate = {
    type: 'rootline.certificate-of-authenticity',
    version: 1,
    issuedAt: '2026-01-02T03:06:00.000Z',
    verificationUrl: `http://localhost:3000/api/transport/trace/${plantId}`,
    plant: {
      id: plantId,
      commonName: 'Basil',
      scientificName: null,
      generation: 0,
      parentId: null,
      propagationType: null,
      privacyLevel: 'exact',
      location: null,
      registeredAt: '2026-01-02T03:04:06.000Z',
    },
    lineage: { ancestors: 0, rootId: null, children: 0 },
    block: { ...header, nonce: mined.nonce, hash: mined.hash },
    ledgerProof: {
      txId: 'tx_b',
      payload: txs[1]!.payload,
      leaf: transactionLeafText(txs[1]!),
      leafIndex: 1,
      treeSize: txs.length,
      auditPath: transactionProof(txs, 1).auditPath,
    },
    auditLog: {
      ...audit,
      treeHead: { timestampMs, signature: signTreeHead(privateKey, timestampMs, audit.treeSize, audit.rootHash) },
    },
    keyId: keyIdOf(publicKey),
  };
  const signed = signCertificate(certificate, privateKey) as SignedCertificate;
  const platformKey = {
    algorithm: 'Ed25519' as const,
    keyId: keyIdOf(publicKey),
    publicKey: rawPublicKey(publicKey).toString('base64'),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
  return { signed, platformKey };
}

describe('verifyCertificate', () => {
  it('accepts a certificate signed by the platform key, given as its answer, raw or PEM', async () => {
    const { signed, platformKey } = signedCertificate();
    const ok = { valid: true, problems: [] };
    expect(await verifyCertificate(signed, platformKey)).toEqual(ok);
    expect(await verifyCertificate(signed, platformKey.publicKey)).toEqual(ok);
    expect(await verifyCertificate(signed, platformKey.publicKeyPem)).toEqual(ok);
  });

  it('refuses a changed field, another key, a broken proof or a bad tree head', async () => {
    const { signed, platformKey } = signedCertificate();
    const changed = structuredClone(signed);
    changed.certificate.plant.commonName = 'Mint';
    expect((await verifyCertificate(changed, platformKey)).problems).toEqual([
      'the signature does not verify over the certificate',
    ]);

    const other = signedCertificate().platformKey;
    expect((await verifyCertificate(signed, other)).problems).toEqual([
      'the signature does not verify over the certificate',
      'the certificate names another key',
      'the tree head signature does not verify',
    ]);
  });

  it('names each failed step when the signed facts do not hold together', async () => {
    // The platform's signature is good, yet the proofs inside are wrong: each step is checked on its own.
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const { signed } = signedCertificate();
    const c = structuredClone(signed.certificate);
    c.keyId = keyIdOf(publicKey);
    c.ledgerProof.leafIndex = 0;
    c.block.hash = `ff${c.block.hash.slice(2)}`;
    c.plant.id = 'plt_01HZX3K6Q2W8N4B7T5R9V0C1ME';
    c.auditLog = null;
    const resigned = signCertificate(c, privateKey) as SignedCertificate;
    const result = await verifyCertificate(resigned, rawPublicKey(publicKey).toString('base64'));
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([
      'the registration is of another plant',
      'ledger proof: the auditPath does not lead to rootHash',
      'the block header does not hash to block.hash',
      'auditLog is null: the audit log had not recorded the registration yet (fetch it again)',
    ]);
  });
});

describe('verifyTreeHead and auditEntryLeafHash', () => {
  it('accepts a tree head the platform key signed, and refuses a changed size, root or key', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const rootHash = leafHashHex(randomBytes(8));
    const head = { timestampMs: 1_764_000_000_000, treeSize: 42, rootHash, keyId: keyIdOf(publicKey) };
    const signed = { ...head, signature: signTreeHead(privateKey, head.timestampMs, head.treeSize, rootHash) };
    const raw = rawPublicKey(publicKey).toString('base64');
    expect(await verifyTreeHead(signed, raw)).toEqual({ valid: true, problems: [] });
    const bad = ['the tree head signature does not verify'];
    expect((await verifyTreeHead({ ...signed, treeSize: 43 }, raw)).problems).toEqual(bad);
    expect((await verifyTreeHead({ ...signed, rootHash: leafHashHex(randomBytes(8)) }, raw)).problems).toEqual(bad);
    const other = rawPublicKey(generateKeyPairSync('ed25519').publicKey).toString('base64');
    expect((await verifyTreeHead(signed, other)).problems).toEqual([...bad, 'the tree head names another key']);
  });

  it('hashes an entry to the leaf the service stored for it, whatever the order of its keys', async () => {
    const entry = {
      index: 3,
      prevHash: leafHashHex(randomBytes(8)),
      source: 'event' as const,
      subject: 'evt.plants.plant.registered',
      kind: 'plant.registered',
      eventId: 'evt_1',
      actor: 'usr_1',
      entity: 'plt_1',
      occurredAt: '2026-11-25T10:00:00.000Z',
      recordedAt: '2026-11-25T10:00:01.000Z',
      reason: null,
      data: { plantId: 'plt_1', commonName: 'Basil ☘', generation: 0.5 },
    };
    const stored = leafHashHex(entryBytes(entry));
    const reordered = Object.fromEntries(Object.entries(entry).reverse());
    expect(await auditEntryLeafHash(reordered)).toBe(stored);
    expect(await auditEntryLeafHash({ ...entry, entity: 'plt_2' })).not.toBe(stored);
  });
});
