import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryBroker } from '@rootline/bus';
import { openDatabase } from '@rootline/db';
import { createLogger, loadConfig } from '@rootline/host';
import { buildGateway } from './app.js';
import { GatewayConfig } from './config.js';
import { PERMISSIONS_DOC, renderPermissionsDoc } from './http/permissions-doc.js';

// Writes docs/permissions.md from the routes a gateway declares. The gateway is built, never started: a
// throwaway embedded database and an in-process bus are all it needs.
const dataDir = await mkdtemp(join(tmpdir(), 'rootline-permissions-'));
const database = await openDatabase({ dataDir });
try {
  const config = loadConfig(GatewayConfig, { JWT_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' });
  const bus = createMemoryBroker().connect('gateway');
  const app = await buildGateway({ bus, log: createLogger('gateway', 'silent'), config, database });
  const target = fileURLToPath(new URL(`../../../${PERMISSIONS_DOC}`, import.meta.url));
  await writeFile(target, renderPermissionsDoc(app.routePolicies));
  process.stdout.write(`wrote ${target} (${app.routePolicies.length} routes)\n`);
  await bus.close();
} finally {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
