import type { Logger } from './logger.js';
import type { ServiceMetrics } from './metrics.js';

export interface Periodic {
  /** Runs at once, then every `everyMs`. Starting twice does nothing. */
  start(): void;
  /** Runs now; during a run, asks for one more run right after it (several wakes make one run). */
  wake(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Background work that runs every `everyMs` and on demand, one run at a time in this process. A run that fails is
 * logged as `<what> failed` and the next tick tries again. The timer does not keep the process alive. With
 * `metrics`, each run is observed in `job_run_duration_seconds` under the name `job`.
 */
export function createPeriodic(o: {
  everyMs: number;
  log: Logger;
  what: string;
  run: () => Promise<void>;
  metrics?: ServiceMetrics;
  /** The run's name in the metrics (default `what`). */
  job?: string;
}): Periodic {
  const job = o.job ?? o.what;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  function wake(): void {
    if (!timer) return;
    if (running) {
      again = true;
      return;
    }
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    running = o
      .run()
      .then(
        () => o.metrics?.run(job, 'ok', seconds()),
        (err: unknown) => {
          o.metrics?.run(job, 'error', seconds());
          o.log.error({ err }, `${o.what} failed`);
        },
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(wake, o.everyMs);
      timer.unref();
      wake();
    },
    wake,
    async stop() {
      clearInterval(timer);
      timer = undefined;
      // A run may ask for another while we wait; stopped, it does not start.
      while (running) await running;
    },
  };
}
