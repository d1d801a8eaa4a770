import { exitOnStartupError, onShutdown } from '@rootline/host';
import { startEmbedded } from './embedded-host.js';

const started = Date.now();
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
