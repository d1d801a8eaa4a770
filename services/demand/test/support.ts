import { service as chainMiner } from '@rootline/chain-miner';
// The gateway's own test platform: the real gateway, services and sessions on private NATS and PostgreSQL.
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { settleDemandHouseholds } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { service as demand } from '../src/service.js';

export type { TestPlatform };

/** Key of the noise of published demand in tests, so a test can tell what the noise of a figure is. */
export const TEST_NOISE_KEY = 'test-noise-key-of-published-demand';

/** The demand service (demand planning and the marketplace) alone behind a real gateway. */
export function startDemandPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  return startTestPlatform([demand], { DEMAND_NOISE_KEY: TEST_NOISE_KEY, ...env });
}

/** Makes households settled (settleDemandHouseholds): they count in aggregates from now on. No ids: every one. */
export function settleHouseholds(p: TestPlatform, ...consumerIds: string[]): Promise<void> {
  return settleDemandHouseholds(p.infra.pg.url, consumerIds);
}

/** The demand service with the plant registry and the ledger, for listings that name plants. */
export function startDemandWithPlants(): Promise<TestPlatform> {
  return startTestPlatform([chainMiner, plants, demand], { CHAIN_DIFFICULTY: '8' });
}

/** Events the demand service enqueued whose payload mentions `like` (an id): subject and payload, oldest first. */
export async function outboxAbout(
  p: TestPlatform,
  like: string,
): Promise<{ subject: string; payload: Record<string, unknown> }[]> {
  return (await p.database.db.execute(
    sql`select subject, payload from demand.outbox where payload::text like ${`%${like}%`} order by seq`,
  )) as unknown as { subject: string; payload: Record<string, unknown> }[];
}
