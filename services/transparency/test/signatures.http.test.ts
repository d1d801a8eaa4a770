import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import {
  type Actor,
  contextToHeaders,
  newId,
  offerAccepted,
  plantRegistered,
  transportCompleted,
} from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import canonicalize from 'canonicalize';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

const handler: Actor = { id: 'usr_hannahsign', role: 'GROWER' };
const recipient: Actor = { id: 'usr_ralphsign1', role: 'USER' };
const stranger: Actor = { id: 'usr_sallysign1', role: 'USER' };
const admin = { role: 'ADMIN' as const, sub: 'usr_adminsign1' };
const as = (a: Actor) => ({ role: a.role, sub: a.id });

/** Signs as the docs say: Ed25519 over the UTF-8 bytes of the RFC 8785 canonical JSON, base64url. */
const signStatement = (statement: unknown, key: KeyObject) =>
  sign(null, Buffer.from(canonicalize(statement) as string, 'utf8'), key).toString('base64url');

type KeyPair = { publicKey: KeyObject; privateKey: KeyObject };
const rawOf = (pair: KeyPair) => pair.publicKey.export({ format: 'jwk' }).x as string;
const proofOf = (pair: KeyPair, message: string) =>
  sign(null, Buffer.from(message, 'utf8'), pair.privateKey).toString('base64url');

describe('signatures over HTTP', () => {
  let p: TestPlatform;
  const handlerKeys = generateKeyPairSync('ed25519');
  const recipientKeys = generateKeyPairSync('ed25519');
  const strangerKeys = generateKeyPairSync('ed25519');

  /** Publishes an event as its service would, and answers what the statement is made of. */
  const publish = async (subject: string, payload: Record<string, unknown>, actor: Actor) => {
    const event = { id: newId('evt', Date.now()), subject, occurredAt: new Date().toISOString(), payload };
    await p.bus.publish({ ...event, headers: contextToHeaders({ requestId: newId('req', Date.now()), actor }) });
    return event;
  };
  /** The statement built from the docs: the event as published, and its place in the audit log. */
  const expectedStatement = async (
    type: string,
    id: string,
    event: { id: string; subject: string; occurredAt: string; payload: unknown },
  ) => {
    const entries = async () =>
      (await p.http('GET', `/api/transparency/audit?entity=${id}`, admin)).body.data as { index: number }[];
    await expect.poll(async () => (await entries()).length, { timeout: 10_000 }).toBe(1);
    const [entry] = await entries();
    const proof = await p.http('GET', `/api/transparency/audit/${entry!.index}/proof`, admin);
    return {
      type,
      id,
      event: { subject: event.subject, eventId: event.id, occurredAt: event.occurredAt, data: event.payload },
      audit: { index: entry!.index, leafHash: proof.body.data.leafHash as string },
    };
  };
  /** A registration body with proof of possession: a fresh challenge of `who`'s, signed with the private key. */
  const keyBody = async (who: Actor, pair: KeyPair, publicKey = rawOf(pair)) => {
    const issued = await p.http('POST', '/api/transparency/signatures/keys/challenge', as(who));
    expect(issued.status).toBe(201);
    const { challenge, messagePrefix } = issued.body.data as { challenge: string; messagePrefix: string };
    expect(messagePrefix).toBe(`rootline-key-registration:${challenge}:${who.id}:`);
    return { publicKey, challenge, proof: proofOf(pair, `${messagePrefix}${rawOf(pair)}`) };
  };
  const register = async (who: Actor, pair: KeyPair, publicKey?: string) => {
    const made = await p.http('POST', '/api/transparency/signatures/keys', {
      ...as(who),
      body: await keyBody(who, pair, publicKey),
    });
    expect(made.status).toBe(201);
    return made.body.data as { id: string; publicKey: string; fingerprint: string };
  };

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    p = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    });
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('registers raw and PEM keys, refuses others, and keeps keys to their owner', async () => {
    const raw = handlerKeys.publicKey.export({ format: 'jwk' }).x as string;
    const key = await register(handler, handlerKeys);
    expect(key).toMatchObject({ publicKey: raw });
    expect(key.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const pem = recipientKeys.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const fromPem = await register(recipient, recipientKeys, pem);
    expect(fromPem.publicKey).toBe(recipientKeys.publicKey.export({ format: 'jwk' }).x);

    const again = await p.http('POST', '/api/transparency/signatures/keys', {
      ...as(handler),
      body: await keyBody(handler, handlerKeys),
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('DUPLICATE');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' });
    const notEd = await p.http('POST', '/api/transparency/signatures/keys', {
      ...as(handler),
      body: { ...(await keyBody(handler, handlerKeys)), publicKey: rsa.toString() },
    });
    expect(notEd.status).toBe(400);
    expect(notEd.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { reason: 'bad-public-key' } });
    const short = await p.http('POST', '/api/transparency/signatures/keys', {
      ...as(handler),
      body: { ...(await keyBody(handler, handlerKeys)), publicKey: 'abc' },
    });
    expect(short.status).toBe(400);

    const list = await p.http('GET', '/api/transparency/signatures/keys', as(handler));
    expect(list.body.data.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect((await p.http('GET', `/api/transparency/signatures/keys/${key.id}`, as(recipient))).status).toBe(403);
    expect((await p.http('GET', `/api/transparency/signatures/keys/${key.id}`, admin)).status).toBe(200);
    expect((await p.http('DELETE', `/api/transparency/signatures/keys/${key.id}`, as(recipient))).status).toBe(403);
    expect((await p.http('GET', '/api/transparency/signatures/keys', {})).status).toBe(401);
  });

  it('accepts a signature of a transport handoff by its parties and refuses a tampered one', async () => {
    const transportEventId = 'tev_signhandoff01';
    const event = await publish(
      transportCompleted.subject,
      {
        eventId: transportEventId,
        kind: 'distribution',
        plantId: 'plt_signplant001',
        seedLotId: null,
        handlerId: handler.id,
        recipientId: recipient.id,
        transportMode: 'bicycle',
        distanceKm: 4.2,
        kgCo2e: 0,
        eventTime: new Date().toISOString(),
        corrects: null,
      },
      handler,
    );
    const statement = await expectedStatement('transport-event', transportEventId, event);
    const served = await p.http(
      'GET',
      `/api/transparency/signatures/statement?subjectType=transport-event&subjectId=${transportEventId}`,
      as(recipient),
    );
    expect(served.status).toBe(200);
    expect(served.body.data.canonical).toBe(canonicalize(statement));

    const keys = (await p.http('GET', '/api/transparency/signatures/keys', as(handler))).body.data as { id: string }[];
    const keyId = keys[0]!.id;
    const submit = (who: Actor, body: Record<string, unknown>) =>
      p.http('POST', '/api/transparency/signatures', { ...as(who), body });
    const base = { subjectType: 'transport-event', subjectId: transportEventId, keyId };

    // Tampered: the handler signs a shorter distance than was recorded.
    const tampered = { ...statement, event: { ...statement.event, data: { ...event.payload, distanceKm: 1 } } };
    const refused = await submit(handler, { ...base, signature: signStatement(tampered, handlerKeys.privateKey) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'signature', reason: 'signature-invalid' },
    });
    // Another user's private key over the right statement.
    const wrongKey = await submit(handler, { ...base, signature: signStatement(statement, strangerKeys.privateKey) });
    expect(wrongKey.body.error?.details?.reason).toBe('signature-invalid');

    const good = await submit(handler, { ...base, signature: signStatement(statement, handlerKeys.privateKey) });
    expect(good.status).toBe(201);
    expect(good.body.data).toMatchObject({ signerId: handler.id, status: 'valid', keyId });
    expect(good.body.data.statementSha256).toBe(served.body.data.sha256);
    const twice = await submit(handler, { ...base, signature: signStatement(statement, handlerKeys.privateKey) });
    expect(twice.status).toBe(409);

    // The recipient countersigns with their PEM-registered key; a stranger is no party to the handoff.
    const recipientKey = (
      (await p.http('GET', '/api/transparency/signatures/keys', as(recipient))).body.data as {
        id: string;
      }[]
    )[0]!.id;
    const counter = await submit(recipient, {
      ...base,
      keyId: recipientKey,
      signature: signStatement(statement, recipientKeys.privateKey),
    });
    expect(counter.status).toBe(201);
    const strangerKey = await register(stranger, strangerKeys);
    const outsider = await submit(stranger, {
      ...base,
      keyId: strangerKey.id,
      signature: signStatement(statement, strangerKeys.privateKey),
    });
    expect(outsider.status).toBe(403);
    // Someone else's key cannot be used.
    expect(
      (await submit(stranger, { ...base, signature: signStatement(statement, handlerKeys.privateKey) })).status,
    ).toBe(403);

    const listed = async () =>
      (
        await p.http(
          'GET',
          `/api/transparency/signatures?subjectType=transport-event&subjectId=${transportEventId}`,
          as(stranger),
        )
      ).body.data as { signerId: string; status: string }[];
    expect((await listed()).map((s) => [s.signerId, s.status])).toEqual([
      [handler.id, 'valid'],
      [recipient.id, 'valid'],
    ]);

    // Deleting a key revokes it: its signature is listed as such, and it signs nothing more.
    const deleted = await p.http('DELETE', `/api/transparency/signatures/keys/${keyId}`, as(handler));
    expect(deleted.body.data.revokedAt).not.toBeNull();
    expect((await listed()).map((s) => s.status)).toEqual(['key-revoked', 'valid']);
    const revoked = await submit(handler, {
      subjectType: 'ownership-transfer',
      subjectId: 'ofr_whatever0001',
      keyId,
      signature: signStatement(statement, handlerKeys.privateKey),
    });
    expect(revoked.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { reason: 'key-revoked' } });
  });

  it('signs ownership transfers and certificates from the audit log, and 404s what was never recorded', async () => {
    const seller: Actor = { id: 'usr_sellersign', role: 'GROWER' };
    const buyer: Actor = { id: 'usr_buyersign1', role: 'USER' };
    const sellerKeys = generateKeyPairSync('ed25519');
    const key = await register(seller, sellerKeys);
    const offer = await publish(
      offerAccepted.subject,
      {
        offerId: 'ofr_signoffer001',
        listingId: 'lst_signlist001',
        buyerId: buyer.id,
        sellerId: seller.id,
        quantity: 2,
        price: 300,
        currency: 'EUR',
      },
      seller,
    );
    const transfer = await expectedStatement('ownership-transfer', 'ofr_signoffer001', offer);
    const signedTransfer = await p.http('POST', '/api/transparency/signatures', {
      ...as(seller),
      body: {
        subjectType: 'ownership-transfer',
        subjectId: 'ofr_signoffer001',
        keyId: key.id,
        signature: signStatement(transfer, sellerKeys.privateKey),
      },
    });
    expect(signedTransfer.status).toBe(201);
    // An ownership transfer is an accepted offer, private to its parties: nobody else reads its statement or signatures.
    const transferQuery = 'subjectType=ownership-transfer&subjectId=ofr_signoffer001';
    const outsider = { role: 'USER' as const, sub: 'usr_carolreads' };
    for (const url of [
      `/api/transparency/signatures/statement?${transferQuery}`,
      `/api/transparency/signatures?${transferQuery}`,
    ]) {
      const refused = await p.http('GET', url, outsider);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'not-a-party' } });
      expect(JSON.stringify(refused.body)).not.toContain(buyer.id);
      expect((await p.http('GET', url, as(buyer))).status).toBe(200);
    }

    const plant = await publish(
      plantRegistered.subject,
      { plantId: 'plt_signcert0001', commonName: 'Fig', ownerId: seller.id },
      seller,
    );
    const certificate = await expectedStatement('certificate', 'plt_signcert0001', plant);
    const signedCertificate = await p.http('POST', '/api/transparency/signatures', {
      ...as(seller),
      body: {
        subjectType: 'certificate',
        subjectId: 'plt_signcert0001',
        keyId: key.id,
        signature: signStatement(certificate, sellerKeys.privateKey),
      },
    });
    expect(signedCertificate.status).toBe(201);

    const missing = await p.http(
      'GET',
      '/api/transparency/signatures/statement?subjectType=certificate&subjectId=plt_neverrecorded',
      as(seller),
    );
    expect(missing.status).toBe(404);
    const badType = await p.http(
      'GET',
      '/api/transparency/signatures/statement?subjectType=invoice&subjectId=plt_signcert0001',
      as(seller),
    );
    expect(badType.status).toBe(400);
  });

  it('verifies any statement, signature and key triple', async () => {
    const statement = { type: 'certificate', id: 'plt_anything001', note: 'ünïcode €', n: 1.5e-7 };
    const signature = signStatement(statement, handlerKeys.privateKey);
    const publicKey = handlerKeys.publicKey.export({ format: 'jwk' }).x;
    const verify = (body: unknown) => p.http('POST', '/api/transparency/signatures/verify', { ...as(stranger), body });
    const ok = await verify({ statement, signature, publicKey });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ valid: true, canonical: canonicalize(statement) });
    // Key order does not matter (canonical JSON sorts keys); content does.
    const reordered = { n: 1.5e-7, note: 'ünïcode €', id: 'plt_anything001', type: 'certificate' };
    expect((await verify({ statement: reordered, signature, publicKey })).body.data.valid).toBe(true);
    expect((await verify({ statement: { ...statement, n: 2 }, signature, publicKey })).body.data.valid).toBe(false);
    const pem = handlerKeys.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect((await verify({ statement, signature, publicKey: pem })).body.data.valid).toBe(true);
    expect((await verify({ statement, signature: 'x'.repeat(10), publicKey })).status).toBe(400);
  });
  it('registers a key only with proof of possession: Bob cannot claim Alice’s key or reuse her signature', async () => {
    const alice: Actor = { id: 'usr_alicekeys1', role: 'GROWER' };
    const bob: Actor = { id: 'usr_bobkeys001', role: 'USER' };
    const carol: Actor = { id: 'usr_carolkeys1', role: 'USER' };
    const aliceKeys = generateKeyPairSync('ed25519');
    const bobKeys = generateKeyPairSync('ed25519');
    const carolKeys = generateKeyPairSync('ed25519');
    const postKey = (who: Actor, body: Record<string, unknown>) =>
      p.http('POST', '/api/transparency/signatures/keys', { ...as(who), body });

    // Alice registers her key and signs a handoff to Bob; her signature is public.
    const aliceBody = await keyBody(alice, aliceKeys);
    const aliceKey = (await postKey(alice, aliceBody)).body.data as { id: string };
    const transportEventId = 'tev_popalicebob1';
    const event = await publish(
      transportCompleted.subject,
      {
        eventId: transportEventId,
        kind: 'distribution',
        plantId: 'plt_popplant0001',
        seedLotId: null,
        handlerId: alice.id,
        recipientId: bob.id,
        transportMode: 'bicycle',
        distanceKm: 2,
        kgCo2e: 0,
        eventTime: new Date().toISOString(),
        corrects: null,
      },
      alice,
    );
    const statement = await expectedStatement('transport-event', transportEventId, event);
    const aliceSignature = signStatement(statement, aliceKeys.privateKey);
    const base = { subjectType: 'transport-event', subjectId: transportEventId };
    const signed = await p.http('POST', '/api/transparency/signatures', {
      ...as(alice),
      body: { ...base, keyId: aliceKey.id, signature: aliceSignature },
    });
    expect(signed.status).toBe(201);

    // Without a proof the body is refused; with Alice's proof replayed, or his own challenge and her proof, too.
    expect((await postKey(bob, { publicKey: rawOf(aliceKeys) })).status).toBe(400);
    const replayed = await postKey(bob, aliceBody);
    expect(replayed.status).toBe(403);
    expect(replayed.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'challenge-not-yours' } });
    const bobsChallenge = await keyBody(bob, bobKeys);
    const forged = await postKey(bob, { ...bobsChallenge, publicKey: rawOf(aliceKeys), proof: aliceBody.proof });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'proof', reason: 'proof-invalid' },
    });
    // Even a proof made with the key (had Bob got hold of it) does not take a key another user registered.
    const stolen = await postKey(bob, await keyBody(bob, aliceKeys));
    expect(stolen.status).toBe(409);
    expect(stolen.body.error).toMatchObject({ code: 'DUPLICATE', details: { reason: 'key-of-another-user' } });
    const bobKeyIds = (await p.http('GET', '/api/transparency/signatures/keys', as(bob))).body.data as unknown[];
    expect(bobKeyIds).toEqual([]);

    // Bob's own key does not make Alice's signature his.
    const bobKey = (await postKey(bob, bobsChallenge)).body.data as { id: string };
    const resubmitted = await p.http('POST', '/api/transparency/signatures', {
      ...as(bob),
      body: { ...base, keyId: bobKey.id, signature: aliceSignature },
    });
    expect(resubmitted.status).toBe(400);
    const listed = (
      await p.http(
        'GET',
        `/api/transparency/signatures?subjectType=transport-event&subjectId=${transportEventId}`,
        as(carol),
      )
    ).body.data as { signerId: string; status: string }[];
    expect(listed.map((x) => [x.signerId, x.status])).toEqual([[alice.id, 'valid']]);

    // Carol: a challenge answers once, and not after it expires.
    const carolBody = await keyBody(carol, carolKeys);
    expect((await postKey(carol, carolBody)).status).toBe(201);
    const reused = await postKey(carol, { ...carolBody, publicKey: rawOf(bobKeys) });
    expect(reused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { reason: 'challenge-used' } });
    const other = generateKeyPairSync('ed25519');
    const late = await keyBody(carol, other);
    await p.database.db.execute(
      sql`update transparency.signing_key_challenges set expires_at = now() - interval '1 second' where challenge = ${late.challenge}`,
    );
    const expired = await postKey(carol, late);
    expect(expired.status).toBe(400);
    expect(expired.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { reason: 'challenge-expired' } });
    const unknown = await postKey(carol, { ...late, challenge: 'A'.repeat(43) });
    expect(unknown.body.error).toMatchObject({ details: { reason: 'challenge-unknown' } });
  });
  it('a key revoked twice at once: both answered with the one revocation time that is stored (20 rounds)', async () => {
    for (let round = 0; round < 20; round++) {
      const key = await register(stranger, generateKeyPairSync('ed25519'));
      const url = `/api/transparency/signatures/keys/${key.id}`;
      const answers = await Promise.all([p.http('DELETE', url, as(stranger)), p.http('DELETE', url, as(stranger))]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const stored = (await p.http('GET', url, as(stranger))).body.data.revokedAt;
      expect(stored).not.toBeNull();
      for (const a of answers) expect(a.body.data.revokedAt, `round ${round}`).toBe(stored);
    }
  });
});
