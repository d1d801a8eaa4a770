import type { PhaseTargets, RecipePhaseName } from '@rootline/contracts/farm';
import type { CropBatchState } from '@rootline/contracts/farm-batches';

const DAY_MS = 86_400_000;

/** A recipe phase as the rules need it. */
export interface PhaseSpan {
  phase: RecipePhaseName;
  days: number;
  targets: PhaseTargets;
}

/** A batch has one harvest: its id is the batch's own, so a retry names the same ledger transaction. */
export const harvestIdOf = (batchId: string) => `hvt_${batchId.slice(batchId.indexOf('_') + 1)}`;

/** Stored status of a batch: open until it is harvested or failed. */
export type BatchStatus = 'open' | 'harvested' | 'failed';

/** Daily light integral, mol/m²/day, of a PPFD (µmol/m²/s) held for `hours` a day. */
export function dli(ppfd: number, hours: number): number {
  return Math.round(ppfd * hours * 0.0036 * 100) / 100;
}

/** Days from start to expected harvest: the sum of the phases' days. */
export function cycleDays(phases: readonly PhaseSpan[]): number {
  return phases.reduce((sum, p) => sum + p.days, 0);
}

export function expectedHarvestAt(startedAt: Date, phases: readonly PhaseSpan[]): Date {
  return new Date(startedAt.getTime() + cycleDays(phases) * DAY_MS);
}

/** The phase at `at` and whole days spent in it; past the last phase, the last one (the crop waits for harvest). */
export function phaseAt(
  phases: readonly PhaseSpan[],
  startedAt: Date,
  at: Date,
): { span: PhaseSpan; daysInPhase: number } {
  const elapsed = Math.max(0, (at.getTime() - startedAt.getTime()) / DAY_MS);
  let begin = 0;
  for (const span of phases) {
    if (elapsed < begin + span.days) return { span, daysInPhase: Math.floor(elapsed - begin) };
    begin += span.days;
  }
  const last = phases[phases.length - 1]!;
  return { span: last, daysInPhase: Math.floor(elapsed - (begin - last.days)) };
}

/**
 * The state machine (docs/farm.md): an open batch is germinating during its first phase when that phase is
 * germination, growing afterwards, and ready from its expected harvest date; harvested and failed are final.
 */
export function batchState(
  status: BatchStatus,
  phases: readonly PhaseSpan[],
  startedAt: Date,
  now: Date,
): CropBatchState {
  if (status !== 'open') return status;
  if (now.getTime() >= expectedHarvestAt(startedAt, phases).getTime()) return 'ready';
  const { span } = phaseAt(phases, startedAt, now);
  return span.phase === 'germination' ? 'germinating' : 'growing';
}

/** Why a state change of a batch is refused: the error code, a message and details naming the batch's state. */
export interface TransitionRefusal {
  code: 'CONFLICT' | 'DUPLICATE';
  message: string;
  details: { reason: `batch-${CropBatchState | 'harvesting'}`; state: CropBatchState | 'harvesting' };
}

const refusal = (
  code: TransitionRefusal['code'],
  state: TransitionRefusal['details']['state'],
  message = `the batch is already ${state}`,
): TransitionRefusal => ({ code, message, details: { reason: `batch-${state}`, state } });

/**
 * Moves the state machine allows: an open batch may be harvested in any state (before its expected harvest date
 * the harvest is early, see `isEarlyHarvest`); a harvested (DUPLICATE) or failed (CONFLICT) one may not, as the
 * record would be false.
 */
export function harvestRefusal(state: CropBatchState): TransitionRefusal | undefined {
  if (state === 'harvested') return refusal('DUPLICATE', state);
  if (state === 'failed') return refusal('CONFLICT', state);
  return undefined;
}

/**
 * Whether an open batch may be failed: not once failed (DUPLICATE), harvested, or while a harvest of it is being
 * recorded on the ledger (`harvesting`: its intent is written; CONFLICT), as the ledger's harvest is final.
 */
export function failRefusal(status: BatchStatus, harvesting: boolean): TransitionRefusal | undefined {
  if (status === 'failed') return refusal('DUPLICATE', 'failed');
  if (status === 'harvested') return refusal('CONFLICT', 'harvested');
  if (harvesting) return refusal('CONFLICT', 'harvesting', 'a harvest of the batch is being recorded');
  return undefined;
}

/** A harvest is early when it is recorded before the recipe's expected harvest date. */
export function isEarlyHarvest(expectedHarvest: Date, harvestedAt: Date): boolean {
  return harvestedAt.getTime() < expectedHarvest.getTime();
}

/** How far ahead of the service clock a given start may be: the sender's clock may run a little fast. */
export const START_CLOCK_SKEW_MS = 5 * 60_000;
/** How far before the recipe's cycle a start may lie: a batch older than its cycle plus a year is a typo. */
export const START_GRACE_DAYS = 365;

/**
 * Why a batch cannot be recorded as started at `startedAt` (undefined when it can): not in the future beyond the
 * clock skew, and no earlier than the recipe's cycle plus `START_GRACE_DAYS` before now.
 */
export function startRefusal(startedAt: Date, phases: readonly PhaseSpan[], now: Date): string | undefined {
  if (startedAt.getTime() > now.getTime() + START_CLOCK_SKEW_MS) return 'startedAt: must not be in the future';
  const earliest = new Date(now.getTime() - (cycleDays(phases) + START_GRACE_DAYS) * DAY_MS);
  if (startedAt.getTime() < earliest.getTime()) {
    return `startedAt: must not be earlier than ${earliest.toISOString()} (the recipe's cycle plus ${START_GRACE_DAYS} days ago)`;
  }
  return undefined;
}

/**
 * Whether a stored harvest is the caller's: recorded by this request, or by an earlier attempt with the same
 * idempotency reference. A batch has one harvest, so concurrent harvests converge on one stored row; every other
 * request finds another reference there and was not recorded (409 DUPLICATE), whatever it sent.
 */
export function isOwnHarvest(stored: { requestRef?: string | null }, requestRef: string): boolean {
  return stored.requestRef != null && stored.requestRef === requestRef;
}
