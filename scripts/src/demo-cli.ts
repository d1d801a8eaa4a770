import { randomBytes } from 'node:crypto';
import { fillDemo } from './demo.js';

// `pnpm demo`: fills the instance at ROOTLINE_URL (default http://localhost:3000) with a small network.
const env = process.env;
const baseUrl = env.ROOTLINE_URL || 'http://localhost:3000';
const password = env.DEMO_PASSWORD || randomBytes(12).toString('base64url');
const admin =
  env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : undefined;
const started = Date.now();
process.stdout.write(`Filling ${baseUrl} with demo data\n`);
try {
  const made = await fillDemo({ baseUrl, password, ...(admin ? { admin } : {}), progress: (l) => console.log(l) });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const households = made.demand.reduce((n, r) => n + r.households, 0);
  console.log(
    `\nDone in ${seconds} s: ${made.accounts.length} accounts, ${made.plants.length} plants, ${made.photos.length} ` +
      `photos, ${made.journeyEvents} journey events, ${households} households in ${made.demand.length} regions, ` +
      `${made.farm ? '1 farm, ' : ''}${made.listings.length} listings, ${made.offers.length} offers.`,
  );
  console.log(`Sign in with any of these (password ${env.DEMO_PASSWORD ? 'DEMO_PASSWORD' : password}):`);
  for (const a of made.accounts) console.log(`  ${a.email}  ${a.name} (${a.role})`);
} catch (err) {
  const e = err as Error & { code?: string; status?: number };
  const cause = (e.cause as { code?: string } | undefined)?.code;
  const hint = cause === 'ECONNREFUSED' ? ` (is Rootline running at ${baseUrl}? start it with pnpm start)` : '';
  process.stderr.write(`demo failed: ${e.message}${e.code ? ` [${e.code}]` : ''}${hint}\n`);
  process.exit(1);
}
