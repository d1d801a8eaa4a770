import { service as chainMiner } from '@rootline/chain-miner';
import type { Role } from '@rootline/contracts';
// The gateway's own test platform: the real gateway, services and sessions on private NATS and PostgreSQL.
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import type { ApiResponse } from '@rootline/testing';
import { service as farm } from '../src/service.js';

export type { TestPlatform };

/** The farm service with the ledger and the plant registry behind a real gateway. */
export function startFarmPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  return startTestPlatform([chainMiner, plants, farm], { CHAIN_DIFFICULTY: '8', ...env });
}

/** A farm manager's account id for a test. */
export const MANAGER = 'usr_farm_manager';
export const OTHER_MANAGER = 'usr_other_manager';

export const farmInput = (name = 'Harbour Greens') => ({
  name,
  location: { latitude: 51.9225, longitude: 4.4792, city: 'Rotterdam', country: 'NL' },
  floorAreaM2: 1200,
  levels: 8,
  lightingSystem: 'led',
  climateSystem: 'hvac-dehumidification',
});

export const zoneInput = (over: Record<string, unknown> = {}) => ({
  name: 'Level 1 NFT',
  level: 1,
  areaM2: 100,
  growingMethod: 'nft',
  capacity: 1000,
  ...over,
});

/** Calls the API as `sub` with `role`, failing the test with the answer when the status is not `expected`. */
export async function expectStatus(
  p: TestPlatform,
  expected: number,
  method: string,
  url: string,
  opts: { role?: Role; sub?: string; body?: unknown } = {},
): Promise<ApiResponse> {
  const res = await p.http(method, url, { role: 'FARM_MANAGER', sub: MANAGER, ...opts });
  if (res.status !== expected) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/** Registers a farm with one zone for `sub`; returns their ids. */
export async function farmWithZone(
  p: TestPlatform,
  sub = MANAGER,
  zone: Record<string, unknown> = {},
): Promise<{ farmId: string; zoneId: string }> {
  const f = await expectStatus(p, 201, 'POST', '/api/vertical-farm/register', { sub, body: farmInput() });
  const farmId = f.body.data.id as string;
  const z = await expectStatus(p, 201, 'POST', `/api/vertical-farm/${farmId}/zones`, { sub, body: zoneInput(zone) });
  return { farmId, zoneId: z.body.data.id as string };
}
