import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The web app bundles the SDK: its runtime code must use only what browsers have (fetch, WebCrypto, TextEncoder).
const SRC = fileURLToPath(new URL('../src', import.meta.url));

describe('the SDK runtime', () => {
  it('imports no Node built-ins and uses neither Buffer nor process', async () => {
    const files = (await readdir(SRC, { recursive: true })).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('client.ts');
    for (const file of files) {
      const text = await readFile(join(SRC, file), 'utf8');
      expect(text, file).not.toMatch(/from ['"](node:|crypto['"]|fs['"]|http['"])/);
      expect(text, file).not.toMatch(/\bBuffer\.|\bprocess\.|\brequire\(/);
    }
  });

  it('depends only on browser-safe packages', async () => {
    const pkg = JSON.parse(await readFile(join(SRC, '../package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['canonicalize', 'eventsource-parser', 'openapi-fetch']);
  });
});
