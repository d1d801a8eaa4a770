import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderConfigReference } from './config-reference.js';
import { REPO_ROOT } from './data-dir.js';

// Writes docs/configuration.md and .env.example from the settings schemas (`pnpm docs:config`).
for (const [path, text] of Object.entries(renderConfigReference())) {
  writeFileSync(join(REPO_ROOT, path), text);
  process.stdout.write(`wrote ${path}\n`);
}
