import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { EVENT_CATALOGUE, renderEventCatalogue } from './domain/event-catalogue.js';

// Writes docs/event-kinds.md from the public kinds the contracts declare.
const target = fileURLToPath(new URL(`../../../${EVENT_CATALOGUE}`, import.meta.url));
await writeFile(target, renderEventCatalogue());
process.stdout.write(`wrote ${target}\n`);
