import { createEmbeddedDatabase, PGLITE_COMPILERS, type PgliteCompiler } from '@rootline/db';
import { localDataDir } from './data-dir.js';
import { SERVICE_MIGRATIONS } from './service-migrations.js';

const started = Date.now();

// A first start creates the database (in a child process, migrations included) before the platform's code is
// loaded, so that this process then starts as it does on every later start (ADR 223). Ctrl-C meanwhile reaches the
// child too; this process stops once the child has ended.
let signalled = false;
const remember = () => {
  signalled = true;
};
process.on('SIGINT', remember);
process.on('SIGTERM', remember);
try {
  const compiler = process.env.PGLITE_COMPILER;
  await createEmbeddedDatabase({
    dataDir: localDataDir(),
    // An unknown value is refused by the configuration below, with the other settings' errors.
    pgliteCompiler: PGLITE_COMPILERS.includes(compiler as PgliteCompiler) ? (compiler as PgliteCompiler) : undefined,
    migrations: SERVICE_MIGRATIONS,
  });
} catch (err) {
  if (signalled) process.exit(0);
  process.stderr.write(`rootline could not start: ${(err as Error).message}\n`);
  process.exit(1);
} finally {
  process.off('SIGINT', remember);
  process.off('SIGTERM', remember);
}
if (signalled) {
  process.stdout.write('Rootline stopped.\n');
  process.exit(0);
}

const before = process.cpuUsage();
const { exitOnStartupError, onShutdown } = await import('@rootline/host');
const { startEmbedded } = await import('./embedded-host.js');
const load = process.cpuUsage(before);
const starting = startEmbedded();
// Registered before start-up ends: Ctrl-C while the database opens waits for it, then stops cleanly.
onShutdown(undefined, async () => {
  const rootline = await starting;
  rootline.log.info('shutting down');
  await rootline.stop();
  process.stdout.write('Rootline stopped.\n');
});
try {
  const rootline = await starting;
  const { user, system } = process.cpuUsage();
  rootline.log.debug(
    {
      cpuMs: {
        beforeLoad: Math.round((before.user + before.system) / 1000),
        load: Math.round((load.user + load.system) / 1000),
        total: Math.round((user + system) / 1000),
      },
    },
    'started: CPU time of the process and of loading its modules',
  );
  // No token is printed: sessions are accounts' now. The README explains how the first ADMIN is created.
  const admin = process.env.ADMIN_EMAIL
    ? `  ADMIN:    ${process.env.ADMIN_EMAIL} (created at first start; sign in with POST /api/auth/signin)`
    : '  Accounts: POST /api/auth/register; for the first ADMIN set ADMIN_EMAIL and ADMIN_PASSWORD (README)';
  process.stdout.write(
    [
      '',
      `Rootline is running (embedded mode, ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      `  API:      ${rootline.url}/api`,
      `  Docs:     ${rootline.url}/api/docs`,
      `  OpenAPI:  ${rootline.url}/api/openapi.json`,
      admin,
      '',
      '',
    ].join('\n'),
  );
} catch (err) {
  exitOnStartupError('rootline', err);
}
