/**
 * Writes the town names the web app's maps label (`apps/web/src/components/map/towns.json`) from the bundled
 * gazetteer: places of 50,000 people or more, largest first, coordinates to 0.01° (about a kilometre). Run it again
 * when the gazetteer package changes: `pnpm --filter @rootline/scripts run map:towns`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gazetteer } from '@rootline/geocoder';

const MIN_POPULATION = 50_000;
const out = fileURLToPath(new URL('../../apps/web/src/components/map/towns.json', import.meta.url));

const g = gazetteer();
const rows: [string, number, number, number][] = [];
for (let i = 0; i < g.size; i++) {
  const population = g.population(i);
  if (population < MIN_POPULATION) continue;
  const round = (x: number) => Math.round(x * 100) / 100;
  rows.push([g.name(i), round(g.latitude(i)), round(g.longitude(i)), population]);
}
rows.sort((a, b) => b[3] - a[3] || (a[0] < b[0] ? -1 : 1));
// One town a line: a diff of a new gazetteer reads as towns added and removed.
writeFileSync(out, `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
console.log(`wrote ${out} (${rows.length} towns of ${MIN_POPULATION.toLocaleString('en')} people or more)`);
