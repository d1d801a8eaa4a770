import type { NotificationType } from '@rootline/contracts/notify';

const DAY_MS = 86_400_000;

/** The week a digest covers: the last full ISO week (Monday 00:00 UTC to the next Monday) before `now`. */
export function digestWeek(now: Date): { from: Date; to: Date; key: string } {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7;
  const to = new Date(midnight - sinceMonday * DAY_MS);
  const from = new Date(to.getTime() - 7 * DAY_MS);
  return { from, to, key: from.toISOString().slice(0, 10) };
}

const LABEL: Partial<Record<NotificationType, [string, string]>> = {
  'plant-registered': ['plant registered', 'plants registered'],
  'transport-alert': ['transport alert', 'transport alerts'],
  'farm-alert': ['farm alert', 'farm alerts'],
  'harvest-ready': ['harvest ready', 'harvests ready'],
  'demand-match': ['demand match', 'demand matches'],
  marketplace: ['marketplace update', 'marketplace updates'],
  transfer: ['ownership transfer', 'ownership transfers'],
};

/** One line per kind of news in the week, most frequent first (welcome and account messages left out). */
export function digestLines(counts: Record<string, number>): string[] {
  return Object.entries(counts)
    .filter(([type, n]) => n > 0 && LABEL[type as NotificationType])
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([type, n]) => {
      const [one, many] = LABEL[type as NotificationType] as [string, string];
      return `${n} ${n === 1 ? one : many}`;
    });
}
