import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { service as chainMiner } from '@rootline/chain-miner';
import { plantEpc } from '@rootline/domain';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { cloneInput, plantInput } from '@rootline/testing';
import canonicalize from 'canonicalize';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

const run = promisify(execFile);

/** The text of a PDF as pdftotext reads it back (through the embedded fonts' Unicode maps). */
async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'certificate-'));
  try {
    await writeFile(join(dir, 'certificate.pdf'), pdf);
    return (await run('pdftotext', ['-enc', 'UTF-8', join(dir, 'certificate.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// A verifier written from docs/transparency.md ("Verifying a certificate") and docs/ledger.md, sharing no code with
// the service: SHA-256, RFC 6962 leaf and node hashes, the RFC 9162 §2.1.3.2 inclusion check, Ed25519.
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const leafHash = (data: Buffer | string) => sha256(Buffer.concat([Buffer.from([0]), Buffer.from(data)]));
const nodeHash = (l: Buffer, r: Buffer) => sha256(Buffer.concat([Buffer.from([1]), l, r]));

function rootFromPath(index: number, size: number, leaf: Buffer, path: string[]): string | null {
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const hex of path) {
    const p = Buffer.from(hex, 'hex');
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn >>= 1;
          sn >>= 1;
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 ? r.toString('hex') : null;
}

const leadingZeroBits = (hex: string) => 256 - BigInt(`0x${hex}`).toString(2).length;

interface Signed {
  certificate: {
    plant: { id: string; commonName: string; generation: number };
    lineage: { ancestors: number; rootId: string | null; children: number };
    verificationUrl: string;
    block: {
      index: number;
      hash: string;
      timestamp: string;
      previousHash: string;
      merkleRoot: string;
      difficulty: number;
      nonce: number;
    };
    ledgerProof: {
      txId: string;
      payload: string;
      leaf: string;
      leafIndex: number;
      treeSize: number;
      auditPath: string[];
    };
    auditLog: null | {
      index: number;
      leafHash: string;
      treeSize: number;
      rootHash: string;
      auditPath: string[];
      treeHead: { timestampMs: number; signature: string };
    };
    keyId: string;
  };
  signature: { algorithm: string; keyId: string; value: string };
}

/** Every check a holder of the certificate and the published public key can make offline. */
function verifyOffline(signed: Signed, publicKeyPem: string) {
  const c = signed.certificate;
  const signature = verify(
    null,
    Buffer.from(canonicalize(c) as string, 'utf8'),
    publicKeyPem,
    Buffer.from(signed.signature.value, 'base64'),
  );
  const [txId, , payloadHash] = c.ledgerProof.leaf.split('|');
  const b = c.block;
  const header = `${b.index}|${b.timestamp}|${b.previousHash}|${b.merkleRoot}|${b.difficulty}|${b.nonce}`;
  const ledger = {
    payload: sha256(c.ledgerProof.payload).toString('hex') === payloadHash && txId === c.ledgerProof.txId,
    names: (JSON.parse(c.ledgerProof.payload) as { plantId?: string }).plantId === c.plant.id,
    inclusion:
      rootFromPath(
        c.ledgerProof.leafIndex,
        c.ledgerProof.treeSize,
        leafHash(c.ledgerProof.leaf),
        c.ledgerProof.auditPath,
      ) === b.merkleRoot,
    blockHash: sha256(header).toString('hex') === b.hash,
    work: leadingZeroBits(b.hash) >= b.difficulty,
  };
  let audit = false;
  let treeHead = false;
  if (c.auditLog) {
    const a = c.auditLog;
    audit = rootFromPath(a.index, a.treeSize, Buffer.from(a.leafHash, 'hex'), a.auditPath) === a.rootHash;
    const bytes = Buffer.alloc(50);
    bytes[0] = 0;
    bytes[1] = 1;
    bytes.writeBigUInt64BE(BigInt(a.treeHead.timestampMs), 2);
    bytes.writeBigUInt64BE(BigInt(a.treeSize), 10);
    Buffer.from(a.rootHash, 'hex').copy(bytes, 18);
    treeHead = verify(null, bytes, publicKeyPem, Buffer.from(a.treeHead.signature, 'base64'));
  }
  return { signature, ...ledger, audit, treeHead };
}

describe('certificates of authenticity over HTTP', () => {
  let p: TestPlatform;
  let grower: string;
  let parentId: string;
  let childId: string;
  let publicKeyPem: string;
  const { privateKey } = generateKeyPairSync('ed25519');

  const certificate = async (id: string) => {
    // The audit log records the registration in the background: up to a minute on a busy machine.
    for (let i = 0; i < 600; i++) {
      const res = await p.http('GET', `/api/transparency/certificate/${id}`);
      expect(res.status).toBe(200);
      const signed = res.body.data as Signed;
      if (signed.certificate.auditLog) return signed;
      await new Promise((r) => setTimeout(r, 100));
    }
    const log = await p.http('GET', '/api/transparency/audit?limit=100', { role: 'ADMIN', sub: 'usr_admin' });
    throw new Error(`the audit log never recorded the registration ${JSON.stringify(log.body)}`);
  };

  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants, transparency], {
      CHAIN_DIFFICULTY: '8',
      PUBLIC_URL: 'https://rootline.example',
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    });
    grower = await p.token('USER', 'usr_grower', 'Ada Grower');
    const parent = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ commonName: 'Heirloom tomato', owner: { id: 'usr_grower', name: 'Ada Grower' } }),
    });
    expect(parent.status).toBe(201);
    parentId = parent.body.data.id;
    const child = await p.http('POST', '/api/plants/clone', {
      token: grower,
      body: cloneInput(parentId, {
        propagationType: 'cutting',
        newPlant: {
          owner: { id: 'usr_grower', name: 'Ada Grower' },
          location: { latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
          privacyLevel: 'city',
        },
      }),
    });
    expect(child.status).toBe(201);
    childId = child.body.data.id;
    publicKeyPem = (await p.http('GET', '/api/transparency/audit/public-key')).body.data.publicKeyPem;
    // Both registrations in the audit log before the tests read their certificates.
    await certificate(parentId);
    await certificate(childId);
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('verifies offline with the published public key: signature, ledger proof, block, audit proof, tree head', async () => {
    const signed = await certificate(childId);
    const c = signed.certificate;
    expect(c.plant).toMatchObject({ id: childId, commonName: 'Heirloom tomato', generation: 1 });
    expect(c.lineage).toEqual({ ancestors: 1, rootId: parentId, children: 0 });
    expect(c.verificationUrl).toBe(plantEpc(childId, 'https://rootline.example', '9520000'));
    expect(verifyOffline(signed, publicKeyPem)).toEqual({
      signature: true,
      payload: true,
      names: true,
      inclusion: true,
      blockHash: true,
      work: true,
      audit: true,
      treeHead: true,
    });
    // The block is the ledger's own.
    const block = await p.http('GET', `/api/chain/blocks/${c.block.hash}`);
    expect(block.body.data.merkleRoot).toBe(c.block.merkleRoot);
    const parent = await certificate(parentId);
    expect(parent.certificate.lineage).toEqual({ ancestors: 0, rootId: null, children: 1 });
  });

  it('fails verification once any stated fact is changed', async () => {
    const signed = await certificate(childId);
    const forged = structuredClone(signed);
    forged.certificate.plant.commonName = 'Golden tomato';
    expect(verifyOffline(forged, publicKeyPem).signature).toBe(false);
    const moved = structuredClone(signed);
    moved.certificate.ledgerProof.leafIndex += 1;
    const check = verifyOffline(moved, publicKeyPem);
    expect(check.signature).toBe(false);
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(verifyOffline(signed, other).signature).toBe(false);
  });

  it('renders the certificate as a PDF that opens and names the plant', async () => {
    const res = await p.app.inject({ method: 'GET', url: `/api/transparency/certificate/${childId}?format=pdf` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const parser = new PDFParse({ data: new Uint8Array(pdf) });
    try {
      const { text, total } = await parser.getText();
      expect(total).toBe(1);
      expect(text).toContain(childId);
      expect(text).toContain('Certificate of authenticity');
      expect(text).toContain('Heirloom tomato');
      const images = await parser.getImage();
      expect(images.pages[0]?.images.length).toBe(1);
    } finally {
      await parser.destroy();
    }
  });

  it('writes the PDF in the language asked for, else the account’s, else Accept-Language, else English', async () => {
    const { registeredAt } = (await p.http('GET', `/api/transparency/certificate/${childId}`)).body.data.certificate
      .plant as { registeredAt: string };
    const day = (lng: string) =>
      new Intl.DateTimeFormat(lng, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(registeredAt));
    const pdf = async (query: string, headers: Record<string, string> = {}) => {
      const res = await p.app.inject({
        method: 'GET',
        url: `/api/transparency/certificate/${childId}?format=pdf${query}`,
        headers,
      });
      expect(res.statusCode).toBe(200);
      return { language: res.headers['content-language'], text: await pdfText(res.rawPayload) };
    };

    // Asked for by name: German words, the registration date as German writes it, the propagation in words.
    const german = await pdf('&language=de', { 'accept-language': 'fr' });
    expect(german.language).toBe('de');
    expect(german.text).toContain('Echtheitszertifikat');
    expect(german.text).toContain('Ausgestellt am');
    expect(german.text).toContain('Wissenschaftlicher Name');
    expect(german.text).toContain(`Registriert: ${day('de')}`);
    expect(german.text).toContain('(Steckling)');
    expect(german.text).toContain('Datenschutzstufe: Stadt');
    expect(german.text).not.toContain('Certificate of authenticity');
    expect(german.text).toContain(childId);

    // No language: the best of Accept-Language the platform writes (a region falls back to its language).
    const french = await pdf('', { 'accept-language': 'ja, fr-CA;q=0.9, nl;q=0.5' });
    expect(french.language).toBe('fr');
    expect(french.text).toContain('Certificat d’authenticité');
    expect(french.text).toContain(day('fr'));

    // Signed in with a language saved on the account: that one, over Accept-Language; `language` still wins.
    const reader = await p.token('USER', 'usr_reader', 'Rosa Reader');
    const saved = await p.http('PATCH', '/api/auth/account', { token: reader, body: { locale: 'es' } });
    expect(saved.status).toBe(200);
    const spanish = await pdf('', { authorization: `Bearer ${reader}`, 'accept-language': 'fr' });
    expect(spanish.language).toBe('es');
    expect(spanish.text).toContain('Certificado de autenticidad');
    expect(spanish.text).toContain(`Registrada: ${day('es')}`);
    const dutch = await pdf('&language=nl', { authorization: `Bearer ${reader}` });
    expect(dutch.text).toContain('Certificaat van echtheid');

    // Nothing to go by, or only languages the platform does not write: English.
    for (const headers of [{}, { 'accept-language': 'ja, zh' }] as Record<string, string>[]) {
      const english = await pdf('', headers);
      expect(english.language).toBe('en');
      expect(english.text).toContain('Certificate of authenticity');
      expect(english.text).toContain(`Registered: ${day('en')}`);
    }
    const unknown = await p.http('GET', `/api/transparency/certificate/${childId}?format=pdf&language=xx`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('answers 404 for an unknown plant and 400 for a malformed id or format', async () => {
    const missing = await p.http('GET', '/api/transparency/certificate/plt_00000000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
    const bad = await p.http('GET', '/api/transparency/certificate/not-a-plant');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const format = await p.http('GET', `/api/transparency/certificate/${childId}?format=docx`);
    expect(format.status).toBe(400);
  });
});
