import { createHmac, randomBytes } from 'node:crypto';
import type { ServiceContext } from '@rootline/host';
import type { DemandConfig } from './config.js';

/**
 * The key of the noise of published demand (domain/published-demand.ts): DEMAND_NOISE_KEY, else derived from
 * JWT_SECRET (so embedded mode needs no setting), else drawn at start with a warning (a week's noise then changes
 * at restart, and each restart gives one more draw to average).
 */
export function demandNoiseKey(ctx: ServiceContext<DemandConfig>): string {
  const { DEMAND_NOISE_KEY, JWT_SECRET } = ctx.config;
  if (DEMAND_NOISE_KEY) return DEMAND_NOISE_KEY;
  if (JWT_SECRET) return createHmac('sha256', JWT_SECRET).update('rootline demand noise').digest('hex');
  ctx.log.warn('neither DEMAND_NOISE_KEY nor JWT_SECRET is set: the noise of published demand changes at restart');
  return randomBytes(32).toString('hex');
}
