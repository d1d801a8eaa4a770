// The build step that bundles the compiled embedded runner (scripts/dist/embedded.js and all it imports) into a few
// files under scripts/dist/bundle, which `pnpm start` runs: a start reads some 40 JavaScript files instead of about
// 1,670 (ADR 241). Plain JavaScript, like build.mjs, since it runs before anything is compiled.
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, relative, sep } from 'node:path';
import * as esbuild from 'esbuild';

/**
 * Left out of the bundle wherever imported: a native addon, whose loader finds its binary beside its own files, and
 * PGlite (its WebAssembly and data files likewise; drizzle's driver imports it statically, the database package
 * with `import()`, and it must be one module for both). Everything else a package imports with `import()` is left
 * out as well: see `external`.
 */
const OUTSIDE = ['argon2', '@electric-sql/pglite'];

/**
 * Imported with `import()` but needed by every embedded start, so bundled: the runner's own packages, and PGlite's
 * driver, which shares drizzle's core with the rest.
 */
const BUNDLED_DYNAMIC = (name) => name.startsWith('@rootline/') || name === 'drizzle-orm';

const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Whether a package import stays an import of the installed package. Packages imported with `import()` are the
 * ones loaded on first use (ADR 199: PGlite, sharp, pdfkit, nodemailer, web-push, OpenTelemetry's SDK…): left out,
 * they keep costing nothing until used, and their own files (WebAssembly, fonts, binaries) stay where they look.
 */
function external(spec, kind) {
  const name = packageOf(spec);
  if (OUTSIDE.includes(name)) return true;
  return kind === 'dynamic-import' && !BUNDLED_DYNAMIC(name);
}

/**
 * Bundles `entry` into `outDir` (emptied first). Each module keeps the location it was compiled to: its
 * `import.meta.url`, `__dirname` and `__filename` name its own file, not the bundle's, so the paths it builds from
 * them (migrations folders, the proof-of-work worker, Swagger UI's assets) are the ones it had. A package left out
 * is imported by its path relative to the bundle, since the bundle's folder cannot resolve the packages of the
 * services it holds.
 */
export async function bundle({ entry, outDir }) {
  const rel = (file) => {
    const r = relative(outDir, file).split(sep).join('/');
    return r.startsWith('.') ? r : `./${r}`;
  };
  const ownLocation = {
    name: 'own-location',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'resolving' || isBuiltin(args.path)) return undefined;
        if (!external(args.path, args.kind)) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'resolving',
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: rel(resolved.path), external: true };
      });
      build.onLoad({ filter: /\.(m?js|cjs)$/ }, async (args) => {
        let text = await readFile(args.path, 'utf8');
        const meta = text.includes('import.meta.url');
        const dir = /\b__(dirname|filename)\b/.test(text);
        if (!meta && !dir) return undefined;
        const file = JSON.stringify(rel(args.path));
        if (meta) text = text.replaceAll('import.meta.url', `new URL(${file}, import.meta.url).href`);
        // Through a helper of the bundle's banner: `import.meta` written here would make esbuild read a CommonJS
        // module as an ES module.
        if (dir) text = `var __filename = __ownFile(${file}), __dirname = __ownDirname(__filename);\n${text}`;
        return { contents: text, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
  rmSync(outDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [entry],
    outdir: outDir,
    bundle: true,
    // A module imported with `import()` (a rarely used handler's code) gets a file of its own, read when first used.
    splitting: true,
    format: 'esm',
    platform: 'node',
    // The oldest Node the project supports (package.json's engines).
    target: 'node20',
    logLevel: 'error',
    plugins: [ownLocation],
    banner: {
      js: [
        "import { createRequire as __createRequire } from 'node:module';",
        "import { fileURLToPath as __fileURLToPath } from 'node:url';",
        "import { dirname as __ownDirname } from 'node:path';",
        // CommonJS modules in the bundle require Node's own modules through this.
        'const require = __createRequire(import.meta.url);',
        'const __ownFile = (path) => __fileURLToPath(new URL(path, import.meta.url));',
      ].join('\n'),
    },
  });
}
