import { sign } from 'node:crypto';
import {
  AppError,
  type CallContext,
  type Certificate,
  certificateRevocationsGet,
  certificateRevoke,
  chainBlockGet,
  chainTxProof,
  plantGet,
  plantLineageGet,
  transparencyCertificateGet,
} from '@rootline/contracts';
import { assertOwnerOrAdmin, inclusionRanges, plantEpc } from '@rootline/domain';
import { call, handle, notFound, publicUrlOf, type ServiceContext } from '@rootline/host';
import canonicalize from 'canonicalize';
import { pdfFonts } from '../adapters/pdf-fonts.js';
import type { SigningKey } from '../adapters/signing-key.js';
import { appendEntry, readHead } from '../db/audit.repo.js';
import {
  currentCertificateId,
  findCertificate,
  listRevocations,
  markRevoked,
  registrationEntry,
} from '../db/certificates.repo.js';
import { signCertificate } from '../domain/certificate.js';
import { renderCertificatePdf } from '../domain/certificate-pdf.js';
import { signTreeHead } from '../domain/tree-head.js';
import { checkpointOf, hashesOf } from './proofs.js';

/**
 * What a certificate's QR code encodes: the plant's GS1 Digital Link URI, which the gateway redirects to the public
 * verification page (the transport service serves it; ADR 275).
 */
export function verificationUrl(publicUrl: string, plantId: string, companyPrefix: string): string {
  return plantEpc(plantId, publicUrl, companyPrefix);
}

/** The plant's `plant.registered` entry with its inclusion proof in the current tree, and that tree signed now. */
async function auditProof(ctx: ServiceContext, key: SigningKey, plantId: string): Promise<Certificate['auditLog']> {
  const entry = await registrationEntry(ctx.db, plantId);
  if (!entry) return null;
  const head = await readHead(ctx.db);
  const [root, ...auditPath] = await hashesOf(ctx, [
    { lo: 0, hi: head.size },
    ...inclusionRanges(entry.index, head.size),
  ]);
  const timestampMs = ctx.clock.now().getTime();
  return {
    index: entry.index,
    leafHash: entry.leafHash,
    treeSize: head.size,
    rootHash: root as string,
    auditPath,
    treeHead: { timestampMs, signature: signTreeHead(key.privateKey, timestampMs, head.size, root as string) },
  };
}

/** Everything a certificate states, from the plants and chain services (current facts) and the audit log. */
async function buildCertificate(
  ctx: ServiceContext,
  key: SigningKey,
  publicUrl: string,
  companyPrefix: string,
  plantId: string,
  caller: CallContext,
): Promise<Certificate> {
  const plant = await call(ctx.bus, plantGet, { plantId }, caller);
  const [lineage, block, proof, audit, certificateId] = await Promise.all([
    call(ctx.bus, plantLineageGet, { plantId, pedigreeDepth: 1000, progenyDepth: 1 }, caller),
    call(ctx.bus, chainBlockGet, { hash: plant.block.hash }, caller),
    call(ctx.bus, chainTxProof, { txId: plant.block.txId }, caller),
    auditProof(ctx, key, plantId),
    currentCertificateId(ctx.db, plantId, ctx.clock.now()),
  ]);
  const tx = block.transactions.find((t) => t.id === plant.block.txId);
  if (!tx) throw new Error(`transaction ${plant.block.txId} is not in block ${block.hash}`);
  return {
    type: 'rootline.certificate-of-authenticity',
    version: 1,
    issuedAt: ctx.clock.now().toISOString(),
    verificationUrl: verificationUrl(publicUrl, plantId, companyPrefix),
    plant: {
      id: plant.id,
      commonName: plant.commonName,
      scientificName: plant.scientificName,
      generation: plant.generation,
      parentId: plant.parentId,
      propagationType: plant.propagationType,
      privacyLevel: plant.privacyLevel,
      location: plant.location,
      registeredAt: plant.registeredAt,
    },
    lineage: {
      ancestors: lineage.ancestors.length,
      rootId: lineage.ancestors.at(-1)?.id ?? null,
      children: lineage.descendants.filter((d) => d.depth === 1).length,
    },
    block: {
      index: block.index,
      hash: block.hash,
      timestamp: block.timestamp,
      previousHash: block.previousHash,
      merkleRoot: block.merkleRoot,
      difficulty: block.difficulty,
      nonce: block.nonce,
    },
    ledgerProof: {
      txId: proof.txId,
      payload: tx.payload,
      leaf: proof.leaf,
      leafIndex: proof.leafIndex,
      treeSize: proof.treeSize,
      auditPath: proof.auditPath,
    },
    auditLog: audit,
    keyId: key.keyId,
    certificateId,
  };
}

/**
 * transparency.certificate.get: the signed certificate of authenticity of a plant, and its PDF when asked, in
 * `language` (English without one; the gateway picks it for HTTP callers). Its verificationUrl (the plant's Digital
 * Link URI) starts with the service's PUBLIC_URL, else the public address the request came through.
 */
export const getCertificate = (
  ctx: ServiceContext,
  key: SigningKey,
  publicUrl: string | undefined,
  companyPrefix: string,
) =>
  handle(transparencyCertificateGet, async ({ plantId, format, language }, caller) => {
    const base = publicUrlOf(caller, publicUrl);
    const signed = signCertificate(
      await buildCertificate(ctx, key, base, companyPrefix, plantId, caller),
      key.privateKey,
    );
    const pdf =
      format === 'pdf' ? (await renderCertificatePdf(signed, await pdfFonts(), language)).toString('base64') : null;
    return { signed, pdf };
  });

/**
 * transparency.certificate.revoke: the plant's owner or an ADMIN revokes a certificate with a reason; the revocation
 * and an audit entry recording it are written in one transaction (ADR 124).
 */
export const revokeCertificate = (ctx: ServiceContext) =>
  handle(certificateRevoke, async ({ certificateId, reason }, caller) => {
    const found = await findCertificate(ctx.db, certificateId);
    if (!found) throw notFound('Certificate', certificateId);
    const plant = await call(ctx.bus, plantGet, { plantId: found.plantId }, caller);
    const actor = assertOwnerOrAdmin(caller, plant.owner.id);
    if (found.revokedAt)
      throw new AppError('CONFLICT', `Certificate ${certificateId} is already revoked`, {
        reason: 'already-revoked',
      });
    const now = ctx.clock.now();
    const at = now.toISOString();
    const revocation = await ctx.db.transaction(async (tx) => {
      const entry = await appendEntry(
        tx,
        {
          source: 'admin',
          subject: 'admin.certificate-revoked',
          kind: 'admin.certificate-revoked',
          eventId: null,
          actor: actor.id,
          entity: certificateId,
          occurredAt: at,
          recordedAt: at,
          reason,
          data: { certificateId, plantId: found.plantId },
        },
        now,
      );
      if (!entry) throw new Error('the revocation was not appended to the audit log');
      const done = await markRevoked(tx, { id: certificateId, by: actor.id, reason, at, auditIndex: entry.index });
      if (!done)
        throw new AppError('CONFLICT', `Certificate ${certificateId} is already revoked`, {
          reason: 'already-revoked',
        });
      return { certificateId, plantId: found.plantId, revokedAt: at, reason, auditIndex: entry.index };
    });
    return revocation;
  });

/** transparency.certificate-revocations.get: every revocation, signed, with the checkpoint of the log holding them. */
export const getRevocationList = (ctx: ServiceContext, key: SigningKey, origin: string) =>
  handle(certificateRevocationsGet, async () => {
    // The head first: every revocation listed after it is in a tree at least this large.
    const head = await readHead(ctx.db);
    const revocations = (await listRevocations(ctx.db)).filter((r) => r.auditIndex < head.size);
    const list = {
      type: 'rootline.certificate-revocations' as const,
      issuedAt: ctx.clock.now().toISOString(),
      keyId: key.keyId,
      revocations,
      checkpoint: checkpointOf(key, origin, head.size, head.rootHash).note,
    };
    const value = sign(null, Buffer.from(canonicalize(list) as string, 'utf8'), key.privateKey).toString('base64');
    return { list, signature: { algorithm: 'Ed25519' as const, keyId: key.keyId, value } };
  });
