import { type Static, Type } from '@sinclair/typebox';
import { Location, Owner, PrefixedId, Timestamp } from './common.js';
import { defineEvent, defineSubject } from './define.js';

export const PlantId = PrefixedId('plt', 'Plant identifier');

/** The spec's Plant registration input. commonName, location and owner are required. */
export const PlantInput = Type.Object(
  {
    commonName: Type.String({ minLength: 1, maxLength: 200, examples: ['Tomato'] }),
    scientificName: Type.Optional(Type.String({ minLength: 1, maxLength: 200, examples: ['Solanum lycopersicum'] })),
    location: Location,
    owner: Owner,
  },
  { additionalProperties: false },
);
export type PlantInput = Static<typeof PlantInput>;

export const RegistrationResult = Type.Object({
  id: PlantId,
  blockHash: Type.String({ description: 'Hash of the block that recorded the plant' }),
  timestamp: Timestamp,
});
export type RegistrationResult = Static<typeof RegistrationResult>;

export const Plant = Type.Object({
  id: PlantId,
  commonName: Type.String(),
  scientificName: Type.Union([Type.String(), Type.Null()]),
  location: Location,
  owner: Owner,
  generation: Type.Integer({ minimum: 0, description: '0 for a registered plant, parent + 1 for offspring' }),
  parentId: Type.Union([PlantId, Type.Null()]),
  block: Type.Object({ index: Type.Integer(), hash: Type.String(), txId: Type.String() }),
  registeredAt: Timestamp,
});
export type Plant = Static<typeof Plant>;

export const NetworkStats = Type.Object({
  totalPlants: Type.Integer({ minimum: 0 }),
  chainLength: Type.Integer({ minimum: 0 }),
  difficulty: Type.Integer({ minimum: 0 }),
  activeGrowers: Type.Integer({ minimum: 0 }),
  countriesRepresented: Type.Integer({ minimum: 0 }),
});
export type NetworkStats = Static<typeof NetworkStats>;

export const plantRegister = defineSubject({
  subject: 'plants.plant.register',
  request: PlantInput,
  reply: RegistrationResult,
  summary: 'Register a plant and record it on the ledger',
});

export const plantGet = defineSubject({
  subject: 'plants.plant.get',
  request: Type.Object({ plantId: Type.String() }),
  reply: Plant,
  summary: 'Read one plant',
});

export const plantRegistered = defineEvent({
  subject: 'evt.plants.plant.registered',
  kind: 'plant.registered',
  payload: Type.Object({ plantId: Type.String(), commonName: Type.String() }),
});
