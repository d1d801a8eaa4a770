import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PlantId, PlantInput, plantGet, plantRegister } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { type BusRouteDeps, busRoute } from '../bus-route.js';

const TAGS = ['Plants'];

/** Plant registration and lookup, under /api/plants. */
export const plantRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '/register',
    summary: 'Register a plant',
    description: 'Registers a plant and records it on the ledger; answers once its block is mined.',
    tags: TAGS,
    policy: { permission: 'plants:write' },
    subject: plantRegister,
    body: PlantInput,
    status: 201,
    errors: ['DUPLICATE', 'CHAIN_ERROR'],
    example: {
      commonName: 'Tomato',
      scientificName: 'Solanum lycopersicum',
      location: { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' },
      owner: { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD', name: 'Ada Grower' },
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/:plantId',
    summary: 'Read a plant',
    tags: TAGS,
    policy: { permission: 'plants:read' },
    subject: plantGet,
    params: Type.Object({ plantId: PlantId }),
    errors: ['NOT_FOUND'],
  });
};
