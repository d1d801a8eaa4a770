// CPU profiler switched on and off by SIGUSR2, for the processes a benchmark profiles. Loaded with
// `NODE_OPTIONS=--import=<this file>`, which Node also applies to tsx's loader thread before tsx is
// registered: hence plain JavaScript, and nothing done off the main thread. (`--cpu-prof` itself is not
// allowed in NODE_OPTIONS, and would profile start-up as well as the measured window.)
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.BENCH_PROFILE_DIR;
const intervalUs = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 1000);

if (isMainThread && dir) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () =>
        session.post('Profiler.setSamplingInterval', { interval: intervalUs }, () => session.post('Profiler.start')),
      );
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, result) => {
      if (err) {
        process.stderr.write(`cpu profiler: ${err.message}\n`);
        return;
      }
      // Written under a temporary name and renamed, so a reader never sees half a file.
      const file = join(dir, `${process.pid}.cpuprofile`);
      writeFileSync(`${file}.tmp`, JSON.stringify(result.profile));
      renameSync(`${file}.tmp`, file);
    });
  });
}
