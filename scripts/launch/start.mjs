// `pnpm start` (embedded) and `pnpm start:cluster`: builds, saying what it does, then runs the compiled runner
// in this same process (the package.json line gives node the V8 flags of scripts/src/node-flags.ts); the embedded
// runner from its bundle (ADR 241).
import { build, Interrupted } from './build.mjs';

const mode = process.argv[2] === 'cluster' ? 'cluster' : 'embedded';

process.stdout.write(`Rootline: building, then starting ${mode === 'cluster' ? 'the cluster' : 'in embedded mode'}\n`);
try {
  await build();
} catch (err) {
  if (err instanceof Interrupted) {
    process.stdout.write('Stopped before starting.\n');
    process.exit(0);
  }
  process.stderr.write(`The build failed: ${err.message}\n`);
  process.exit(1);
}
const port = process.env.PORT || '3000';
process.stdout.write(
  mode === 'cluster'
    ? `Starting the cluster's processes, the API on http://localhost:${port}…\n`
    : `Starting on http://localhost:${port}…\n`,
);
// Until the runner has registered its own stop handlers (right after its modules load), Ctrl-C must not end the
// process mid-load with a signal, which pnpm reports as a failure.
const ignore = () => {};
process.on('SIGINT', ignore);
process.on('SIGTERM', ignore);
const runner = mode === 'cluster' ? import('../dist/cluster.js') : import('../dist/bundle/embedded.js');
await runner;
process.off('SIGINT', ignore);
process.off('SIGTERM', ignore);
