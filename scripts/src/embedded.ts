import { exitOnStartupError, onShutdown } from '@rootline/host';
import { startEmbedded } from './embedded-host.js';

try {
  const started = Date.now();
  const rootline = await startEmbedded();
  const token = rootline.app.jwt.sign({ sub: 'usr_local_admin', role: 'ADMIN' }, { expiresIn: '1d' });
  process.stdout.write(
    [
      '',
      `Rootline is running (embedded mode, ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      `  API:      ${rootline.url}/api`,
      `  Docs:     ${rootline.url}/api/docs`,
      `  OpenAPI:  ${rootline.url}/api/openapi.json`,
      '  A local ADMIN token for trying the API (valid one day):',
      `  ${token}`,
      '',
      '',
    ].join('\n'),
  );
  onShutdown(rootline.log, rootline.stop);
} catch (err) {
  exitOnStartupError('rootline', err);
}
