import {
  ENVIRONMENT_CATEGORIES,
  type EnvironmentCategory,
  type EnvironmentData,
} from '@rootline/contracts/environment';

/** When the value of each category in a current environment was recorded. */
export type CategoryTimes = Partial<Record<EnvironmentCategory, string>>;

/** The categories a record carries, in the contract's order. */
export function categoriesOf(data: EnvironmentData): EnvironmentCategory[] {
  return ENVIRONMENT_CATEGORIES.filter((c) => data[c] !== undefined);
}

/**
 * A plant's current environment after one more record: each category the record carries replaces the current
 * one unless the current one was recorded later (a late-arriving older record only fills gaps). A category
 * replaces as a whole: a record's soil is the soil as measured then.
 */
export function mergeCurrent(
  current: EnvironmentData,
  times: CategoryTimes,
  data: EnvironmentData,
  recordedAt: string,
): { current: EnvironmentData; times: CategoryTimes } {
  const next: Record<string, unknown> = { ...current };
  const nextTimes: CategoryTimes = { ...times };
  for (const category of categoriesOf(data)) {
    const at = times[category];
    if (at !== undefined && Date.parse(at) > Date.parse(recordedAt)) continue;
    next[category] = data[category];
    nextTimes[category] = recordedAt;
  }
  return { current: next as EnvironmentData, times: nextTimes };
}
