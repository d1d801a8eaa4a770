import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FILE, REGENERATE, SCHEMA_FILE, SDK_DIR, writeGenerated } from '../codegen/generate.js';

const dir = await mkdtemp(join(tmpdir(), 'rootline-sdk-generated-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the generated SDK files', () => {
  it(`match the gateway's routes (regenerate: ${REGENERATE})`, { timeout: 180_000 }, async () => {
    await writeGenerated(dir);
    for (const file of [DOCUMENT_FILE, SCHEMA_FILE]) {
      const committed = await readFile(join(SDK_DIR, file), 'utf8').catch(() => '');
      const fresh = await readFile(join(dir, file), 'utf8');
      // Compared as booleans first so a stale file fails with the command in the message, not a megabyte diff.
      expect(committed === fresh, `packages/sdk/${file} is stale: run ${REGENERATE}`).toBe(true);
    }
  });
});
