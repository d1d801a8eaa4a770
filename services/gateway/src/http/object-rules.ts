import { type Actor, AppError } from '@rootline/contracts';
import { ORG_ROLES, type OrgRole } from '@rootline/contracts/organizations';
import type { FastifyRequest } from 'fastify';

/**
 * Who may touch the record a route names, declared next to its permission. The permission says which kind of
 * record a role may touch at all; the object rule says which records of that kind (docs/permissions.md).
 *
 * - `none`: the route names no record of anyone's (a create for oneself with no owner field, a search or a
 *   statistic over public data, the platform's own state).
 * - `own`: the route acts only on the caller's own records and takes no id that could name another's.
 * - `self`: `field` names an account, which must be the caller's, or the organization the request acts for
 *   (`Rootline-Act-As`, ADR 237); an ADMIN may name anyone's. Enforced here, in the gateway, before the request
 *   reaches a service.
 * - `public`: any caller the permission lets in may read the named record; what the public form shows is in
 *   docs/privacy.md.
 * - `role`: the permission alone decides, over every record of the kind (administration).
 * - `owner`: only the record's owner (or an ADMIN).
 * - `party`: only a party to the record (the buyer or seller of an offer, the consumer of a preference…), or an
 *   ADMIN.
 * - `custodian`: only whoever has custody of the plant or seed lot (its owner, or a recipient who accepted a
 *   handoff), or an ADMIN.
 * - `attached-to`: as the record the named one is attached to (a file is read by whoever may read its record).
 * - `org-role`: only a member of the named organization holding `role` or a stronger one (owner > manager > member >
 *   viewer), read from the membership on every request (docs/organizations.md). An ADMIN is no exception: an
 *   organization's members are its own business.
 *
 * `owner`, `party`, `custodian`, `attached-to` and `org-role` need the record, so the service that owns it enforces them
 * with the helpers of `@rootline/host` (`assertOwnerOrAdmin`…); the generic authorization test holds every
 * route to its declaration.
 */
export type ObjectRule =
  | { rule: 'none' | 'own'; why?: string }
  | { rule: 'self'; field: string }
  | {
      rule: 'public' | 'role' | 'owner' | 'party' | 'custodian' | 'attached-to';
      /** The request field (path, query or body; dotted for nested) that names the record. */
      field: string;
      /** The kind of record it names, e.g. `plant`. */
      record: string;
      /** A word on a rule that is not obvious (who the parties are…). */
      why?: string;
    }
  | {
      rule: 'org-role';
      /** The request field that names the organization. */
      field: string;
      record: 'organization';
      /** The weakest role that may. */
      role: OrgRole;
      why?: string;
    };

export const OBJECT_RULES = [
  'none',
  'own',
  'self',
  'public',
  'role',
  'owner',
  'party',
  'custodian',
  'attached-to',
  'org-role',
] as const;

/** A route's object rules: one, or one per record it names. */
export type ObjectRules = ObjectRule | readonly ObjectRule[];

/** The rules as a list. */
export function objectRuleList(rules: ObjectRules): readonly ObjectRule[] {
  return Array.isArray(rules) ? rules : [rules as ObjectRule];
}

/** One line of docs/permissions.md for a route's object rules, e.g. `owner of plant (plantId)`. */
export function describeObjectRules(rules: ObjectRules): string {
  return objectRuleList(rules)
    .map((r) => {
      if (r.rule === 'none' || r.rule === 'own') return r.rule;
      if (r.rule === 'self') return `self (${r.field})`;
      if (r.rule === 'org-role') return `org-role:${r.role} of ${r.record} (${r.field})`;
      const named = r as { rule: string; field: string; record: string };
      return `${named.rule} of ${named.record} (${named.field})`;
    })
    .join('; ');
}

/** Checks a declaration at start-up: known rules, and a field on every rule that names a record. */
export function objectRulesProblem(rules: unknown): string | null {
  if (rules === undefined) return 'declares no object rule: set config.object';
  const list = Array.isArray(rules) ? rules : [rules];
  if (list.length === 0) return 'declares an empty list of object rules';
  for (const r of list as Partial<ObjectRule & { field: string }>[]) {
    if (!OBJECT_RULES.includes(r.rule as (typeof OBJECT_RULES)[number])) return `has unknown object rule ${r.rule}`;
    if (r.rule !== 'none' && r.rule !== 'own' && !r.field) return `object rule ${r.rule} names no field`;
    if (r.rule === 'org-role' && !ORG_ROLES.includes((r as { role: OrgRole }).role)) {
      return `object rule org-role names no organization role (${ORG_ROLES.join(', ')})`;
    }
  }
  return null;
}

/** The value at a dotted path of the request's params, query or body (the first that has it). */
function fieldValue(req: FastifyRequest, field: string): unknown {
  for (const part of [req.params, req.query, req.body]) {
    let value: unknown = part;
    for (const key of field.split('.')) {
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    }
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * Enforces the `self` rules of a route for a verified caller: a field naming an account must name the caller's or
 * the organization the request acts for, unless the caller is an ADMIN. FORBIDDEN with the field and reason
 * `not-self` otherwise.
 */
export function assertSelfRules(rules: ObjectRules, actor: Actor, req: FastifyRequest): void {
  if (actor.role === 'ADMIN') return;
  for (const r of objectRuleList(rules)) {
    if (r.rule !== 'self') continue;
    const value = fieldValue(req, r.field);
    if (value !== undefined && value !== actor.id && value !== actor.org?.id) {
      throw new AppError('FORBIDDEN', `${r.field} must be your own account id or the organization you act for`, {
        field: r.field,
        reason: 'not-self',
      });
    }
  }
}
