import { writeGenerated } from './generate.js';

// Writes openapi.json (the gateway's OpenAPI document) and src/generated/schema.ts (its types).
for (const path of await writeGenerated()) process.stdout.write(`wrote ${path}\n`);
