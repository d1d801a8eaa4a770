import {
  AppError,
  chainTxSubmit,
  isAppError,
  newId,
  plantGet,
  plantRegister,
  plantRegistered,
  type TxReceipt,
} from '@rootline/contracts';
import { call, handle, notFound, type ServiceContext } from '@rootline/host';
import { findPlant, insertPlant } from '../db/plants.repo.js';

/**
 * plants.plant.register: record the plant on the ledger, then store it and its `plant.registered` event in one
 * transaction. The caller is answered only after both, so an acknowledged registration is never lost.
 */
export const registerPlant = (ctx: ServiceContext) =>
  handle(plantRegister, async (input, caller) => {
    const id = newId('plt');
    const registeredAt = ctx.clock.now().toISOString();
    const record = {
      plantId: id,
      commonName: input.commonName,
      scientificName: input.scientificName ?? null,
      location: input.location,
      owner: input.owner,
      generation: 0,
      parentId: null,
      registeredAt,
    };
    let receipt: TxReceipt;
    try {
      receipt = await call(ctx.bus, chainTxSubmit, { type: 'plant.register', payload: record }, caller);
    } catch (err) {
      if (isAppError(err) && err.code === 'CHAIN_ERROR') throw err;
      caller.log.error({ err }, 'ledger submission failed');
      throw new AppError('CHAIN_ERROR', 'The ledger could not record the plant', {
        cause: isAppError(err) ? err.code : 'INTERNAL',
      });
    }
    await ctx.db.transaction(async (tx) => {
      await insertPlant(tx, {
        id,
        commonName: input.commonName,
        scientificName: input.scientificName ?? null,
        latitude: input.location.latitude,
        longitude: input.location.longitude,
        city: input.location.city ?? null,
        country: input.location.country ?? null,
        ownerId: input.owner.id,
        ownerName: input.owner.name,
        generation: 0,
        parentId: null,
        blockIndex: receipt.blockIndex,
        blockHash: receipt.blockHash,
        txId: receipt.txId,
        registeredAt,
        registeredBy: caller.actor?.id ?? null,
      });
      await ctx.outbox.enqueue(tx, plantRegistered, { plantId: id, commonName: input.commonName }, caller);
    });
    return { id, blockHash: receipt.blockHash, timestamp: registeredAt };
  });

/** plants.plant.get: one plant with its generation, parent and block. */
export const getPlant = (ctx: ServiceContext) =>
  handle(plantGet, async ({ plantId }) => {
    const plant = await findPlant(ctx.db, plantId);
    if (!plant) throw notFound('Plant', plantId);
    return plant;
  });
