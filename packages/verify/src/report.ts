/** One thing checked, and what was found. */
export interface Check {
  check: string;
  ok: boolean;
  detail?: string;
}

/** All that was checked; `ok` when every check passed. */
export interface Report {
  ok: boolean;
  checks: Check[];
}

/** Collects checks into a report. */
export function reporter() {
  const checks: Check[] = [];
  return {
    check(check: string, ok: boolean, detail?: string) {
      checks.push(detail === undefined ? { check, ok } : { check, ok, detail });
      return ok;
    },
    /** Records the problems of one step: passed when there are none. */
    problems(check: string, problems: string[]) {
      checks.push(problems.length === 0 ? { check, ok: true } : { check, ok: false, detail: problems.join('; ') });
      return problems.length === 0;
    },
    report(): Report {
      return { ok: checks.every((c) => c.ok), checks };
    },
  };
}
