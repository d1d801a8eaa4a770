/** Failed sign-ins allowed before each further attempt must wait. */
export const ACCOUNT_FAILURES_BEFORE_BACKOFF = 5;
/** Per client IP the threshold is higher: one address may serve many people (an office, a NAT). */
export const IP_FAILURES_BEFORE_BACKOFF = 20;
/** How long failures are remembered, counted from the first. */
export const FAILURE_WINDOW_MS = 60 * 60 * 1000;
const FIRST_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 15 * 60;

/**
 * Seconds to wait after the given number of consecutive failures: nothing up to the threshold, then 30 s,
 * doubling with each further failure, capped at 15 minutes. Slows guessing to a crawl without locking the
 * owner out for long.
 */
export function backoffSeconds(failures: number, threshold: number): number {
  if (failures < threshold) return 0;
  const delay = FIRST_DELAY_SECONDS * 2 ** Math.min(failures - threshold, 10);
  return Math.min(delay, MAX_DELAY_SECONDS);
}
