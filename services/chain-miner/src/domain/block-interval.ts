/** What the appender knows when it is about to assemble a block. */
export interface NextBlock {
  /** Transactions in the previous block it assembled (0 before the first). */
  previousSize: number;
  /** Time since it assembled the previous block (ms; Infinity before the first). */
  sinceAssembledMs: number;
  /** Transactions queued in this instance (those in the mempool table are not counted). */
  queued: number;
}

/** The settings the block interval depends on. */
export interface IntervalOptions {
  /**
   * Under load, the shortest time between the assembly of two blocks, unless `maxBlockTx` transactions are
   * already queued; a lone submitter does not wait for it.
   */
  blockIntervalMs: number;
  maxBlockTx: number;
}

/**
 * How long the next block still waits for the block interval (ms).
 *
 * Each block costs about 2^difficulty hashes whatever its size, so the block rate bounds the proof of work per
 * second. Under load the next block is therefore assembled no sooner than `blockIntervalMs` after the previous
 * one: fewer, larger blocks leave the CPU to the rest of the platform, and throughput comes from block size. A
 * full block goes at once, since waiting could not make it larger.
 *
 * A lone submitter (e.g. one client registering one plant after the other) never waits: the previous block
 * held at most one transaction and at most one is queued, so its block goes after the batching delay alone.
 * Anything else is load: several transactions are waiting, or the previous block answered several submitters
 * at once. The latter matters because such submitters come back together a round trip after their block was
 * stored, when the appender may already be idle: judged on the queue alone, clients that each wait for their
 * answer would get a block every few milliseconds however many they are. Whether the appender had to wait for
 * work is not part of the rule: on a busy machine a lone submitter's next transaction can arrive before the
 * appender's loop resumes, which would make it look like load.
 */
export function intervalLeft(next: NextBlock, options: IntervalOptions): number {
  const lone = next.previousSize <= 1 && next.queued <= 1;
  if (lone || next.queued >= options.maxBlockTx) return 0;
  // Never more than the interval itself, whatever the clock did.
  return Math.min(options.blockIntervalMs, Math.max(0, options.blockIntervalMs - next.sinceAssembledMs));
}
