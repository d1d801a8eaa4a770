import { service as chainMiner } from '@rootline/chain-miner';
// The gateway's own test platform: the real gateway, services and sessions on private NATS and PostgreSQL.
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { service as transport } from '../src/service.js';

export type { TestPlatform };

/** The transport service with the ledger and the plant registry it records journeys of, behind a real gateway. */
export function startTransportPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  return startTestPlatform([chainMiner, plants, transport], { CHAIN_DIFFICULTY: '8', ...env });
}
