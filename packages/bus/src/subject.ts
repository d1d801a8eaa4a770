/**
 * True when a concrete subject matches a NATS subject pattern: `*` stands for exactly one token and a
 * final `>` for one or more remaining tokens. Tokens are compared whole, so `evt.plants.>` does not
 * match `evt.plantsx.created`.
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  const want = pattern.split('.');
  const have = subject.split('.');
  for (let i = 0; i < want.length; i++) {
    const token = want[i];
    if (token === '>') return i === want.length - 1 && have.length > i;
    if (i >= have.length) return false;
    if (token !== '*' && token !== have[i]) return false;
  }
  return want.length === have.length;
}
