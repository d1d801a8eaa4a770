/**
 * The text alternative of a photo of a record, said the way a person would: "Photo of Tomato 'Brandywine'", and
 * "Photo 2 of 3 of Heirloom seeds" in a gallery of more than one (ADR 203).
 */
export function photoAlt(subject: string, index = 0, count = 1): string {
  const name = subject.trim() || 'the record';
  return count > 1 ? `Photo ${index + 1} of ${count} of ${name}` : `Photo of ${name}`;
}
