import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A table: a header row and data rows of preformatted cells. */
export interface Table {
  head: string[];
  rows: string[][];
  /** Columns aligned right (numbers); by default every column but the first. */
  right?: boolean[];
}

function alignRight(t: Table, i: number): boolean {
  return t.right?.[i] ?? i > 0;
}

/** The table in GitHub markdown. */
export function markdownTable(t: Table): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rule = t.head.map((_, i) => (alignRight(t, i) ? '---:' : '---'));
  return [line(t.head), line(rule), ...t.rows.map(line)].join('\n');
}

/** The table as padded plain text, for the terminal. */
export function textTable(t: Table): string {
  const widths = t.head.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (alignRight(t, i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(t.head), widths.map((w) => '-'.repeat(w)).join('  '), ...t.rows.map(line)].join('\n');
}

const start = (name: string) => `<!-- bench:${name}:start -->`;
const end = (name: string) => `<!-- bench:${name}:end -->`;

/**
 * Writes one benchmark's section into the results file: the text between its markers is replaced, or the
 * section is appended when it is not there yet. A missing file is created with `header`. Text outside the
 * markers (hand-written analysis) is kept.
 */
export async function writeSection(file: string, name: string, body: string, header: string): Promise<void> {
  const current = existsSync(file) ? await readFile(file, 'utf8') : `${header.trimEnd()}\n`;
  const section = `${start(name)}\n${body.trim()}\n${end(name)}`;
  const from = current.indexOf(start(name));
  const to = current.indexOf(end(name));
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + section + current.slice(to + end(name).length)
      : `${current.trimEnd()}\n\n${section}\n`;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, next);
}

/** A number with a fixed count of decimals and thousands separators. */
export function fmt(n: number, decimals = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A share as a percentage. */
export function pct(share: number, decimals = 1): string {
  return `${fmt(share * 100, decimals)} %`;
}
