import { resolve } from 'node:path';
import { exitOnStartupError, onShutdown } from '@rootline/host';
import { startCluster } from './cluster-host.js';
import { localDataDir } from './data-dir.js';
import { localJwtSecret, localStorageSecret } from './secret.js';

const env = process.env;
const dataDir = localDataDir(env);
// Until the cluster is up, Ctrl-C ends the start-up: the processes started so far stop with it.
const starting = new AbortController();
const abortStart = () => starting.abort();
process.on('SIGINT', abortStart);
process.on('SIGTERM', abortStart);
try {
  const started = Date.now();
  const cluster = await startCluster({
    signal: starting.signal,
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
  process.off('SIGINT', abortStart);
  process.off('SIGTERM', abortStart);
  const stop = async () => {
    await cluster.stop();
    process.stdout.write('Rootline cluster stopped.\n');
  };
  // A signal that came while the last readiness check was answering has been taken by abortStart: honour it.
  if (starting.signal.aborted) {
    await stop();
    process.exit(0);
  }
  onShutdown(undefined, stop);
} catch (err) {
  if (starting.signal.aborted) {
    process.stdout.write('Rootline cluster stopped before it was ready.\n');
    process.exit(0);
  }
  exitOnStartupError('rootline cluster', err);
}
