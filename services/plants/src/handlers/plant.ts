import {
  type AnonymousRegistrationInput,
  type AnonymousRegistrationResult,
  AppError,
  type EncryptedContact,
  type Location,
  newId,
  type Owner,
  type PartyInput,
  type PrivacyLevel,
  type PropagationType,
  peerPlantVerify,
  plantClone,
  plantCloned,
  plantGet,
  plantRegister,
  plantRegisterAnonymous,
  plantRegistered,
  type RegistrationResult,
  type ScientificNameSource,
  type SealedPrivateKey,
} from '@rootline/contracts';
import { pendingEvent } from '@rootline/db';
import { actingOwner, secureRandom } from '@rootline/domain';
import { discloseLocation } from '@rootline/geocoder';
import { call, type HandlerContext, handle, ledgerTxId, notFound, type ServiceContext } from '@rootline/host';
import type { Recorder } from '../db/ledger.js';
import {
  type AnonymousOwnerRow,
  findAnonymousRegistration,
  findParent,
  findPlant,
  type StoredAnonymousRegistration,
} from '../db/plants.repo.js';
import type { RemoteParentRow } from '../db/remote-parents.repo.js';
import { findSeedLot } from '../db/seed-lots.repo.js';
import { createAnonymousIdentity, isEd25519PublicKey, UnusableKeyError } from '../domain/anonymous.js';
import { checkScientificName } from '../domain/checklist.js';
import { searchTexts } from '../domain/search.js';

/** A scientific name as given, checked against the checklist (accepted name, author, family; ADR 118). */
export function checkedName(
  given: string | undefined,
  now: Date,
): { scientificName: string | null; scientificNameSource: ScientificNameSource | null } {
  if (given === undefined) return { scientificName: null, scientificNameSource: null };
  const checked = checkScientificName(given);
  return {
    scientificName: checked.name,
    scientificNameSource: checked.taxon
      ? {
          source: 'checklist',
          author: checked.taxon.author,
          family: checked.taxon.family,
          givenName: checked.taxon.givenName,
          identificationId: null,
          provider: null,
          score: null,
          recordedAt: now.toISOString(),
        }
      : null,
  };
}

/**
 * The owner named in full. Over HTTP the gateway has bound the name to the owner's account (filled in, or refused
 * when it is not the account's: ADR 176); a bus caller names the owner itself.
 */
function namedOwner(owner: PartyInput, field: string): NewOwner {
  if (owner.name === undefined) {
    throw new AppError('VALIDATION_ERROR', `${field}.name: name the owner`, {
      field: `${field}.name`,
      reason: 'name-required',
    });
  }
  return { id: owner.id, name: owner.name, nameStatedBy: owner.nameStatedBy ?? null };
}

/** An owner about to be recorded; `nameStatedBy` names who stated the name of an owner without an account. */
export type NewOwner = Owner & { nameStatedBy: string | null };

/**
 * How long the transparency service may take to fetch and verify a peer's bundle: more than its PEER_TIMEOUT_MS
 * (10 s by default) for the one request to the peer, plus the consistency proof its checkpoint may need.
 */
const PEER_VERIFY_TIMEOUT_MS = 25_000;

/** Name shown as the owner of an anonymous plant without a pseudonym. */
export const ANONYMOUS_OWNER_NAME = 'Anonymous grower';

/** A plant about to be recorded; `location` has already been through its privacy level. */
export interface NewPlant {
  commonName: string;
  scientificName: string | null;
  scientificNameSource?: ScientificNameSource | null;
  location: Location | null;
  privacyLevel: PrivacyLevel;
  owner: NewOwner;
  walletAddress: string | null;
  generation: number;
  parent: { id: string; blockHash: string; propagationType: PropagationType } | null;
  /** The seed lot the plant was grown from (ADR 270). */
  seedLotId?: string | null;
  /** A parent on another node, verified through the peer mirror (ADR 308); `parent` is then null. */
  remoteParent?: { link: Omit<RemoteParentRow, 'plantId'>; propagationType: PropagationType };
}

/** The answer a registration gave, rebuilt from its stored plant (a retry of a finished one gets the same). */
async function storedResult(ctx: ServiceContext, id: string): Promise<RegistrationResult | undefined> {
  const plant = await findPlant(ctx.db, id);
  return plant && { id, blockHash: plant.block.hash, timestamp: plant.registeredAt };
}

/**
 * Records a new plant through the recorder: first its intent, then the ledger (`plant.register`, or `plant.clone`
 * with the parent link, under the transaction id derived from the plant id), then the plant and its events in one
 * statement, so an acknowledged plant is never lost and a mined one is always stored (see the recorder). Only
 * the obfuscated location reaches the ledger and the table. A call with an idempotency reference answers from
 * the stored plant, so a retry gets the first attempt's answer.
 */
export async function recordPlant(
  ctx: ServiceContext,
  recorder: Recorder,
  caller: HandlerContext,
  p: NewPlant,
  anonymousOwner?: AnonymousOwnerRow,
  // Named by the call's idempotency reference when it has one: a retry names the same plant and transaction.
  id: string = ctx.newId('plt', caller),
): Promise<RegistrationResult> {
  if (caller.idempotencyRef && !anonymousOwner) {
    const done = await storedResult(ctx, id);
    if (done) return done;
  }
  const registeredAt = ctx.clock.now().toISOString();
  const payload = {
    plantId: id,
    commonName: p.commonName,
    scientificName: p.scientificName,
    location: p.location,
    privacyLevel: p.privacyLevel,
    owner: { id: p.owner.id, name: p.owner.name },
    // Who stated the name of an owner without an account, on the ledger beside it (as for a recipient).
    ...(p.owner.nameStatedBy ? { ownerNameStatedBy: p.owner.nameStatedBy } : {}),
    ...(p.walletAddress ? { walletAddress: p.walletAddress } : {}),
    generation: p.generation,
    parentId: p.parent?.id ?? null,
    ...(p.parent ? { parentBlockHash: p.parent.blockHash, propagationType: p.parent.propagationType } : {}),
    ...(p.seedLotId ? { seedLotId: p.seedLotId } : {}),
    // A parent on another node: its node, its id there and the proof it was accepted on (ADR 308).
    ...(p.remoteParent
      ? {
          propagationType: p.remoteParent.propagationType,
          remoteParent: {
            peer: p.remoteParent.link.peer,
            url: p.remoteParent.link.peerUrl,
            plantId: p.remoteParent.link.remotePlantId,
            blockHash: p.remoteParent.link.blockHash,
            bundleDigest: p.remoteParent.link.bundleDigest,
            checkpoint: { size: p.remoteParent.link.checkpointSize, rootHash: p.remoteParent.link.checkpointRoot },
          },
        }
      : {}),
    registeredAt,
  };
  const texts = searchTexts({
    commonName: p.commonName,
    scientificName: p.scientificName,
    city: p.location?.city,
    country: p.location?.country,
    ownerName: p.owner.name,
  });
  const events = [
    pendingEvent(
      plantRegistered,
      {
        plantId: id,
        commonName: p.commonName,
        ...(anonymousOwner ? {} : { ownerId: p.owner.id }),
        ...(p.scientificName ? { scientificName: p.scientificName } : {}),
        privacyLevel: p.privacyLevel,
        // Already through the privacy level: what anyone reading the plant sees (null when hidden).
        location: p.location,
      },
      caller,
    ),
  ];
  if (p.parent) {
    events.push(
      pendingEvent(
        plantCloned,
        {
          plantId: id,
          parentPlantId: p.parent.id,
          propagationType: p.parent.propagationType,
          generation: p.generation,
        },
        caller,
      ),
    );
  }
  const receipt = await recorder.record(
    {
      txId: ledgerTxId(id),
      txType: p.parent || p.remoteParent ? 'plant.clone' : 'plant.register',
      payload,
      record: {
        row: {
          id,
          commonName: p.commonName,
          scientificName: p.scientificName,
          scientificNameSource: p.scientificNameSource ?? null,
          latitude: p.location?.latitude ?? null,
          longitude: p.location?.longitude ?? null,
          city: p.location?.city ?? null,
          country: p.location?.country ?? null,
          privacyLevel: p.privacyLevel,
          ownerId: p.owner.id,
          ownerName: p.owner.name,
          ownerNameStatedBy: p.owner.nameStatedBy,
          walletAddress: p.walletAddress,
          generation: p.generation,
          parentId: p.parent?.id ?? null,
          propagationType: p.parent?.propagationType ?? p.remoteParent?.propagationType ?? null,
          registeredAt,
          registeredBy: caller.actor?.id ?? null,
          seedLotId: p.seedLotId ?? null,
          searchSpecies: texts.species,
          searchLocation: texts.location,
          searchOwner: texts.owner,
        },
        ...(anonymousOwner ? { anonymousOwner } : {}),
        ...(p.remoteParent ? { remoteParent: { plantId: id, ...p.remoteParent.link } } : {}),
      },
      events,
    },
    caller,
  );
  // A retry may have finished the first attempt's write (its own registration time): answer what is stored.
  if (caller.idempotencyRef)
    return (await storedResult(ctx, id)) ?? { id, blockHash: receipt.blockHash, timestamp: registeredAt };
  return { id, blockHash: receipt.blockHash, timestamp: registeredAt };
}

/**
 * The parent of a plant grown from a seed lot: the lot's first parent plant (its mother), sown (`seed`); null for a
 * lot that names no parent. NOT_FOUND for an unknown lot, CONFLICT for a discarded one.
 */
async function seedLotParent(
  ctx: ServiceContext,
  seedLotId: string,
): Promise<{ id: string; blockHash: string; propagationType: PropagationType; generation: number } | null> {
  const lot = await findSeedLot(ctx.db, seedLotId);
  if (!lot) throw notFound('Seed lot', seedLotId);
  if (lot.discardedAt) {
    throw new AppError('CONFLICT', 'seedLotId: the seed lot was discarded', {
      field: 'seedLotId',
      reason: 'discarded',
    });
  }
  const motherId = lot.parentPlantIds[0];
  const mother = motherId ? await findParent(ctx.db, motherId) : undefined;
  return mother
    ? { id: mother.id, blockHash: mother.blockHash, propagationType: 'seed', generation: mother.generation }
    : null;
}

/**
 * plants.plant.register: a new plant for an account holder: a root plant (generation 0), or, grown from a recorded
 * seed lot (`seedLotId`), a seedling of the lot's mother plant with the lot recorded between them.
 */
export const registerPlant = (ctx: ServiceContext, recorder: Recorder) =>
  handle(plantRegister, async (input, caller) => {
    // The owner is the caller; only an ADMIN registers for someone else (recorded as registeredBy).
    actingOwner(caller, input.owner.id);
    const privacyLevel = input.privacyLevel;
    const fromLot = input.seedLotId ? await seedLotParent(ctx, input.seedLotId) : null;
    return recordPlant(ctx, recorder, caller, {
      commonName: input.commonName,
      ...checkedName(input.scientificName, ctx.clock.now()),
      location: await discloseLocation(input.location, privacyLevel, secureRandom),
      privacyLevel,
      owner: namedOwner(input.owner, 'owner'),
      walletAddress: null,
      generation: fromLot ? fromLot.generation + 1 : 0,
      parent: fromLot && { id: fromLot.id, blockHash: fromLot.blockHash, propagationType: fromLot.propagationType },
      seedLotId: input.seedLotId ?? null,
    });
  });

/** The answer to an anonymous registration rebuilt from what is stored (its contact handle is kept only sealed). */
function storedAnonymousAnswer(stored: StoredAnonymousRegistration): AnonymousRegistrationResult {
  const o = stored.owner;
  return {
    id: stored.id,
    blockHash: stored.blockHash,
    timestamp: stored.timestamp,
    anonymousId: o.anonymousId,
    walletAddress: o.walletAddress,
    publicKey: o.publicKey,
    privateKey: null,
    encryptedPrivateKey: (o.sealedPrivateKey as SealedPrivateKey | null) ?? null,
    pseudonym: o.pseudonym,
    encryptionPublicKey: o.encryptionPublicKey,
    anonymousContact: { handle: null, encrypted: o.encryptedContact as EncryptedContact },
  };
}

/**
 * The answer to a retry of an anonymous registration whose first attempt made the stored plant: what is stored,
 * when the caller can hold its key without Rootline sending it in clear again (its own `publicKey`, or the key
 * sealed to its `keyEncryptionPublicKey`). A key made and sent in clear is stored nowhere: 409.
 */
function retriedAnonymousAnswer(
  stored: StoredAnonymousRegistration,
  input: AnonymousRegistrationInput,
): AnonymousRegistrationResult {
  const own = input.publicKey !== undefined && stored.owner.publicKey === input.publicKey;
  if (own || (input.keyEncryptionPublicKey !== undefined && stored.owner.sealedPrivateKey)) {
    return storedAnonymousAnswer(stored);
  }
  throw new AppError(
    'DUPLICATE',
    'This anonymous registration was already made and its private key was returned once in clear; send ' +
      '`keyEncryptionPublicKey` or your own `publicKey` to register in a way a retry can be answered',
    { id: stored.id },
  );
}

/**
 * plants.plant.register-anonymous: a root plant without an account. The owner is a fresh anonymous id; an Ed25519
 * key pair (the client's own `publicKey`, or one made here) gives the wallet address written to the ledger. Only
 * the public key, the pseudonym, the encryption public key, the encrypted contact and a private key sealed to the
 * client's `keyEncryptionPublicKey` are stored; a private key made without one is returned once in clear.
 *
 * A retry (same idempotency reference) names the same plant: once the first attempt's plant is stored (or its
 * intent, which the retry then finishes), the retry is answered from what is stored, so a client whose first
 * answer was lost still gets its plant and its sealed key (ADR 184).
 */
export const registerAnonymousPlant = (ctx: ServiceContext, recorder: Recorder) =>
  handle(plantRegisterAnonymous, async (input, caller) => {
    const privacyLevel = input.privacyLevel;
    let identity: ReturnType<typeof createAnonymousIdentity>;
    if (input.publicKey !== undefined && !isEd25519PublicKey(input.publicKey)) {
      throw new AppError('VALIDATION_ERROR', 'publicKey: not an Ed25519 public key', [
        { field: 'body/publicKey', message: 'is not an Ed25519 public key', reason: 'bad-public-key' },
      ]);
    }
    if (input.publicKey !== undefined && input.keyEncryptionPublicKey !== undefined) {
      throw new AppError('VALIDATION_ERROR', 'keyEncryptionPublicKey: not with publicKey (no key is made to seal)', [
        { field: 'body/keyEncryptionPublicKey', message: 'must be absent when publicKey is given' },
      ]);
    }
    try {
      identity = createAnonymousIdentity({
        encryptionPublicKey: input.encryptionPublicKey,
        walletPublicKey: input.publicKey,
        keyEncryptionPublicKey: input.keyEncryptionPublicKey,
      });
    } catch (err) {
      if (err instanceof UnusableKeyError) {
        const field = input.keyEncryptionPublicKey !== undefined ? 'keyEncryptionPublicKey' : 'encryptionPublicKey';
        throw new AppError('VALIDATION_ERROR', `${field}: ${err.message}`, { field });
      }
      throw err;
    }
    const plantId = ctx.newId('plt', caller);
    if (caller.idempotencyRef) {
      const stored = await findAnonymousRegistration(ctx.db, plantId);
      if (stored) return retriedAnonymousAnswer(stored, input);
    }
    const anonymousId = newId('anon', ctx.clock.now().getTime());
    const pseudonym = input.pseudonym ?? null;
    const encryptionPublicKey = input.encryptionPublicKey ?? null;
    const result = await recordPlant(
      ctx,
      recorder,
      // No actor: nothing ties the plant to an account, and the events carry no user.
      { ...caller, actor: undefined },
      {
        commonName: input.commonName,
        ...checkedName(input.scientificName, ctx.clock.now()),
        location: await discloseLocation(input.location, privacyLevel, secureRandom),
        privacyLevel,
        owner: { id: anonymousId, name: pseudonym ?? ANONYMOUS_OWNER_NAME, nameStatedBy: null },
        walletAddress: identity.walletAddress,
        generation: 0,
        parent: null,
      },
      {
        anonymousId,
        walletAddress: identity.walletAddress,
        publicKey: identity.publicKey,
        pseudonym,
        encryptionPublicKey,
        encryptedContact: identity.contact.encrypted,
        sealedPrivateKey: identity.sealedPrivateKey,
      },
      plantId,
    );
    if (caller.idempotencyRef) {
      // A retry that raced its first attempt finished that attempt's write (the recorder takes its intent over):
      // what is stored is the first attempt's identity, not the one made here.
      const stored = await findAnonymousRegistration(ctx.db, plantId);
      if (stored && stored.owner.anonymousId !== anonymousId) return retriedAnonymousAnswer(stored, input);
    }
    return {
      ...result,
      anonymousId,
      walletAddress: identity.walletAddress,
      publicKey: identity.publicKey,
      privateKey: identity.privateKey,
      encryptedPrivateKey: identity.sealedPrivateKey,
      pseudonym,
      encryptionPublicKey,
      anonymousContact: identity.contact,
    };
  });

/**
 * plants.plant.clone: an offspring of an existing plant. It inherits the parent's species, is one generation
 * below it, and its ledger transaction names the parent and the parent's block.
 */
export const clonePlant = (ctx: ServiceContext, recorder: Recorder) =>
  handle(plantClone, async (input, caller) => {
    actingOwner(caller, input.newPlant.owner.id);
    if ((input.parentPlantId === undefined) === (input.remoteParent === undefined)) {
      throw new AppError('VALIDATION_ERROR', 'Name the parent once: parentPlantId or remoteParent', [
        { field: 'body/parentPlantId', message: 'give either parentPlantId or remoteParent', reason: 'one-parent' },
      ]);
    }
    const privacyLevel = input.newPlant.privacyLevel ?? 'exact';
    if (input.remoteParent) {
      // A retry of a propagation already recorded is answered from it, whatever the peer's state is now.
      if (caller.idempotencyRef) {
        const done = await storedResult(ctx, ctx.newId('plt', caller));
        if (done) return done;
      }
      // Verified by this node's transparency service through its mirror of the peer before anything is written.
      const v = await call(ctx.bus, peerPlantVerify, input.remoteParent, caller, PEER_VERIFY_TIMEOUT_MS);
      return recordPlant(ctx, recorder, caller, {
        commonName: v.commonName ?? v.plantId,
        scientificName: v.scientificName,
        location: await discloseLocation(input.newPlant.location, privacyLevel, secureRandom),
        privacyLevel,
        owner: namedOwner(input.newPlant.owner, 'newPlant.owner'),
        walletAddress: null,
        generation: (v.generation ?? 0) + 1,
        parent: null,
        remoteParent: {
          propagationType: input.propagationType,
          link: {
            peer: v.peer,
            peerUrl: v.url,
            remotePlantId: v.plantId,
            commonName: v.commonName,
            scientificName: v.scientificName,
            generation: v.generation,
            blockHash: v.blockHash,
            bundleDigest: v.bundleDigest,
            checkpointSize: v.checkpoint.treeSize,
            checkpointRoot: v.checkpoint.rootHash,
            verifiedAt: v.verifiedAt,
          },
        },
      });
    }
    const parentPlantId = input.parentPlantId as string;
    const parent = await findParent(ctx.db, parentPlantId);
    if (!parent) throw notFound('Plant', parentPlantId);
    return recordPlant(ctx, recorder, caller, {
      commonName: parent.commonName,
      scientificName: parent.scientificName,
      location: await discloseLocation(input.newPlant.location, privacyLevel, secureRandom),
      privacyLevel,
      owner: namedOwner(input.newPlant.owner, 'newPlant.owner'),
      walletAddress: null,
      generation: parent.generation + 1,
      parent: { id: parent.id, blockHash: parent.blockHash, propagationType: input.propagationType },
    });
  });

/** plants.plant.get: one plant with its generation, parent and block. */
export const getPlant = (ctx: ServiceContext) =>
  handle(plantGet, async ({ plantId }, caller) => {
    const plant = await ctx.reads.run(caller, (db) => findPlant(db, plantId));
    if (!plant) throw notFound('Plant', plantId);
    return plant;
  });
