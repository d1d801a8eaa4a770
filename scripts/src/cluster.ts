import { resolve } from 'node:path';
import { exitOnStartupError } from '@rootline/host';
import { startCluster } from './cluster-host.js';
import { localDataDir } from './data-dir.js';
import { localJwtSecret, localStorageSecret } from './secret.js';

const env = process.env;
const dataDir = localDataDir(env);
try {
  const started = Date.now();
  const cluster = await startCluster({
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/rootline',
    port: Number(env.PORT ?? 3000),
    jwtSecret: localJwtSecret(dataDir),
    // Local storage shared by the gateway and media processes: one absolute folder and one signing key.
    env: {
      STORAGE_SIGNING_SECRET: localStorageSecret(dataDir, env),
      STORAGE_DIR: env.STORAGE_DIR ?? resolve(dataDir, 'media'),
    },
    miners: Number(env.CHAIN_MINERS ?? 1),
    // With METRICS_BASE_PORT (e.g. 9464), each service process serves its metrics on the next port from there.
    ...(env.METRICS_BASE_PORT && env.METRICS_BASE_PORT !== '0'
      ? { metricsBasePort: Number(env.METRICS_BASE_PORT) }
      : {}),
  });
  process.stdout.write(
    `\nRootline cluster is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s): ` +
      `${[...cluster.processes.keys()].join(', ')}\n  API:  ${cluster.url}/api\n  Docs: ${cluster.url}/api/docs\n` +
      (env.ADMIN_EMAIL ? `  ADMIN: ${env.ADMIN_EMAIL} (created at first start)\n\n` : '  First ADMIN: see README\n\n'),
  );
  let stopping = false;
  const shutdown = () => {
    if (stopping) process.exit(1);
    stopping = true;
    cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (err) {
  exitOnStartupError('rootline cluster', err);
}
