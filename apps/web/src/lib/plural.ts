const rules = new Intl.PluralRules('en');

/**
 * A count with its noun, in the plural form English asks for (`1 event`, `2 events`, `0 events`), chosen by
 * Intl.PluralRules. `other` is for nouns whose plural is not `one` + s (`1 match`, `2 matches`).
 */
export function countOf(n: number, one: string, other = `${one}s`): string {
  return `${n.toLocaleString()} ${rules.select(n) === 'one' ? one : other}`;
}
