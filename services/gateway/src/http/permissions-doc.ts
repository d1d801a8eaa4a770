import {
  ORG_ROLE_PERMISSIONS,
  ORG_ROLES,
  PERMISSIONS,
  type Permission,
  ROLE_PERMISSIONS,
  ROLES,
} from '@rootline/contracts';
import type { RoutePolicyEntry } from '../plugins/auth.js';
import { describeObjectRules } from './object-rules.js';

/** Where the generated document lives, from the repository root. */
export const PERMISSIONS_DOC = 'docs/permissions.md';

const rolesWith = (permission: Permission) => ROLES.filter((r) => ROLE_PERMISSIONS[r].has(permission));
/** The weakest organization role whose members acting for it are lent the permission, if any. */
const lentFrom = (permission: Permission) =>
  [...ORG_ROLES].reverse().find((r) => ORG_ROLE_PERMISSIONS[r].includes(permission));

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
  const roleRows = PERMISSIONS.map((p) => [
    `\`${p}\``,
    ...ROLES.map((r) => (ROLE_PERMISSIONS[r].has(p) ? 'yes' : '')),
    lentFrom(p) ? `${lentFrom(p)} and up` : '',
  ]);
  const routeRows = routes.map((r) => {
    const lent = r.access === 'public' ? undefined : lentFrom(r.access);
    return [
      r.method,
      r.aliasOf ? `\`${r.url}\` (former path)` : `\`${r.url}\``,
      r.access === 'public' ? 'public' : `\`${r.access}\``,
      r.access === 'public' ? 'anyone' : rolesWith(r.access).join(', ') + (lent ? `; org ${lent}+ acting` : ''),
      describeObjectRules(r.object),
      r.orgRole ?? 'not read',
    ];
  });
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
    'A "former path" answers exactly as the operation that replaced it (same handler, rules and answers); it is',
    'kept for existing clients and left out of the OpenAPI document, where it would be ambiguous beside another.',
    '',
    ...[...new Map(routes.filter((r) => r.aliasOf).map((r) => [r.url, r.aliasOf])).entries()].map(
      ([from, to]) => `- \`${from}\` is \`${to}\``,
    ),
    '',
    '## Roles and permissions',
    '',
    ...table(['permission', ...ROLES, 'lent when acting for an organization'], roleRows),
    '',
    '## Acting for an organization',
    '',
    'A request with `Rootline-Act-As: org_…` acts for that organization ([docs/organizations.md](organizations.md),',
    "ADR 237). The gateway reads the caller's role in it on that request: a caller below the route's organization",
    "role (last column of the routes' table) gets 403 FORBIDDEN, reason `org-role`; one who is no member of a live",
    'organization of that id, reason `not-a-member`. Acting lends the permissions of the last column above (an API',
    "token's scopes still narrow them); records created while acting are the organization's, and the rules `owner`",
    "and `self` accept a caller acting for the owning organization with the route's organization role.",
    'Public routes that do not identify their caller do not read the header ("not read").',
    '',
    '## Object rules',
    '',
    'A permission lets a role touch a kind of record; the object rule beside it says which records of that kind.',
    'Every route declares one (`object` in its route config; the gateway refuses to start without it), naming the',
    'request field that names the record:',
    '',
    "- `none`: the route names no record of anyone's (a search or statistic over public data, the platform's state).",
    "- `own`: the route acts only on the caller's own records and takes no id that could name another's.",
    "- `self (field)`: the field names an account, which must be the caller's; an ADMIN may name anyone's.",
    '  Enforced by the gateway before the request reaches a service (403 FORBIDDEN, reason `not-self`).',
    '- `public of <record> (field)`: any caller the permission lets in may read it, in the public form',
    '  [docs/privacy.md](privacy.md) describes.',
    '- `role of <record> (field)`: the permission alone decides, over every record of the kind (administration).',
    '- `owner of <record> (field)`: only its owner, or an ADMIN.',
    '- `party of <record> (field)`: only a party to it (the seller and the buyer of an offer), or an ADMIN.',
    '- `custodian of <record> (field)`: only whoever has custody of the plant or seed lot (its owner, or a recipient',
    '  who accepted a handoff; docs/transport.md), or an ADMIN.',
    '- `attached-to of <record> (field)`: as the record it is attached to (a file is read by its uploader, by',
    '  whoever may read its record, and by everyone when that record is public).',
    '- `org-role:<role> of organization (field)`: only a member of the organization holding that role or a stronger',
    '  one (owner > manager > member > viewer; [docs/organizations.md](organizations.md)), read from the membership',
    '  on every request, so a removed member or a lowered role counts at once. An ADMIN is no exception.',
    '',
    'Rules that need the record are enforced by the service that owns it, with the helpers of `@rootline/host`',
    "(`assertOwnerOrAdmin`, `actingOwner`). Someone else's private record answers 403 FORBIDDEN, or 404 NOT_FOUND",
    'where even its existence is private (a draft listing, a file). The generic authorization test',
    '(`scripts/test/object-authorization.http.test.ts`) holds every route to its declaration: it fails for a',
    'route that names a record and has no case there.',
    '',
    '## Routes',
    '',
    ...table(['method', 'path', 'requires', 'roles', 'object rule', 'org role acting'], routeRows),
    '',
  ].join('\n');
}
