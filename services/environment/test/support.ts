import { service as chainMiner } from '@rootline/chain-miner';
// The gateway's own test platform: the real gateway, services and sessions on private NATS and PostgreSQL.
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { service as environment } from '../src/service.js';

export type { TestPlatform };

/** The environment service with the plant registry (and its ledger) whose plants it records, behind a real gateway. */
export function startEnvironmentPlatform(): Promise<TestPlatform> {
  return startTestPlatform([chainMiner, plants, environment], { CHAIN_DIFFICULTY: '8' });
}
