/**
 * The nearby statement as PostgreSQL text, and the area it reads, for a client outside the service: the nearby
 * benchmark's bare pipeline runs the same statement to measure the floor of a nearby request. Not an API of the
 * service (that is `plants.plant.nearby` on the bus).
 */
export { nearbyStatementText } from './db/nearby.repo.js';
export { nearbyArea } from './domain/nearby.js';
