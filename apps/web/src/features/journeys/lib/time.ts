/** A `datetime-local` value as RFC 3339 with the browser's own time-zone offset, as the API asks. */
export function withLocalOffset(local: string): string {
  const date = new Date(local);
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const seconds = local.length === 16 ? ':00' : '';
  return `${local}${seconds}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** Now, as a `datetime-local` value. */
export function nowLocal(): string {
  const d = new Date();
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return d.toISOString().slice(0, 16);
}
