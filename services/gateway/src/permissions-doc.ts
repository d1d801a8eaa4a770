import { PERMISSIONS, type Permission, ROLE_PERMISSIONS, ROLES } from '@rootline/contracts';
import type { RoutePolicyEntry } from './plugins/auth.js';

/** Where the generated document lives, from the repository root. */
export const PERMISSIONS_DOC = 'docs/permissions.md';

const rolesWith = (permission: Permission) => ROLES.filter((r) => ROLE_PERMISSIONS[r].has(permission));

/** A Markdown table with its columns padded to one width, as the formatter writes them. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/**
 * docs/permissions.md from the route declarations: which role holds which permission, and what every /api
 * route requires. Deterministic (sorted), so a test can compare it with the file.
 */
export function renderPermissionsDoc(policies: readonly RoutePolicyEntry[]): string {
  const routes = [...new Map(policies.map((p) => [`${p.method} ${p.url}`, p])).values()].sort(
    (a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method),
  );
  const roleRows = PERMISSIONS.map((p) => [`\`${p}\``, ...ROLES.map((r) => (ROLE_PERMISSIONS[r].has(p) ? 'yes' : ''))]);
  const routeRows = routes.map((r) => [
    r.method,
    `\`${r.url}\``,
    r.access === 'public' ? 'public' : `\`${r.access}\``,
    r.access === 'public' ? 'anyone' : rolesWith(r.access).join(', '),
  ]);
  return [
    '# Permissions',
    '',
    '<!-- Generated from the route declarations by `pnpm --filter @rootline/gateway docs:permissions`.',
    '     Do not edit: a test fails when this file and the routes disagree. -->',
    '',
    'Every `/api` route declares `public` or one permission; the gateway refuses to start otherwise. A caller',
    "without a credential gets 401, a caller whose role (or API token's scopes) lacks the permission gets 403.",
    "The role is read from the account on every request. An API token's scopes narrow its owner's role, never",
    'widen it.',
    '',
    '## Roles and permissions',
    '',
    ...table(['permission', ...ROLES], roleRows),
    '',
    '## Ownership',
    '',
    'A permission lets a role change a kind of record; only the owner of a given plant, listing or farm, or an',
    'ADMIN, changes it (`isOwnerOrAdmin` in `packages/contracts/src/roles.ts`, applied by the service that owns',
    'the record). Accounts change only their own session, tokens and verification; roles change only through',
    '`PUT /api/admin/users/{userId}/role`.',
    '',
    '## Routes',
    '',
    ...table(['method', 'path', 'requires', 'roles'], routeRows),
    '',
  ].join('\n');
}
