/** One step of offered load: requests arrive at `rate` per second for `seconds`, whatever the answers do. */
export interface OpenLoopStep {
  rate: number;
  seconds: number;
  /** A step that is sent but not reported (warm-up). */
  uncounted?: boolean;
}

/** What the open-loop worker is asked to do. */
export interface OpenLoopOptions {
  /** Origin of the server, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Requests sent in turn, one per arrival. */
  requests: { method: string; path: string; body?: string }[];
  headers: Record<string, string>;
  steps: OpenLoopStep[];
  /** A request not answered within this many seconds counts as an error. */
  timeoutSeconds: number;
  /** Pause between steps, so that the next one starts without the previous one's queue. */
  pauseSeconds: number;
  /** Stop stepping up after a step whose p99 exceeds this (ms) or that had errors: the load only piles up. */
  giveUpP99Ms: number;
}

/** One step's figures; latencies in milliseconds from each request's scheduled arrival to its answer. */
export interface OpenLoopStepResult {
  rate: number;
  seconds: number;
  /** Requests sent (arrivals). */
  sent: number;
  /** Answered with a 2xx. */
  ok: number;
  /** 2xx answers per second, over the span from the step's first arrival to the last answer of its requests. */
  achievedRate: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  /** Non-2xx answers, connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  /** How late the generator sent its requests behind their schedule (its own lag), p99 and max, ms. */
  sendLagMs: { p99: number; max: number };
}

/** Messages from the worker: the edges of each counted step (for CPU metering), then the results. */
export type OpenLoopMessage =
  | { type: 'step-start'; index: number }
  | { type: 'step-end'; index: number; result: OpenLoopStepResult }
  | { type: 'done' }
  | { type: 'failed'; message: string };
