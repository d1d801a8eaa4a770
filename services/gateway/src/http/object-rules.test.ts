import { AppError } from '@rootline/contracts';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { assertSelfRules, describeObjectRules, objectRulesProblem } from './object-rules.js';

const request = (parts: Partial<Pick<FastifyRequest, 'params' | 'query' | 'body'>>) =>
  ({ params: {}, query: {}, body: undefined, ...parts }) as FastifyRequest;
const alice = { id: 'usr_alice', role: 'USER' } as const;

describe('object rules', () => {
  it('refuses a route without a declaration, an unknown rule, or a record rule without its field', () => {
    expect(objectRulesProblem(undefined)).toMatch(/no object rule/);
    expect(objectRulesProblem([])).toMatch(/empty/);
    expect(objectRulesProblem({ rule: 'mine' })).toMatch(/unknown object rule mine/);
    expect(objectRulesProblem({ rule: 'owner', record: 'plant' })).toMatch(/names no field/);
    expect(objectRulesProblem({ rule: 'owner', field: 'plantId', record: 'plant' })).toBeNull();
    expect(objectRulesProblem([{ rule: 'self', field: 'userId' }, { rule: 'none' }])).toBeNull();
  });

  it('describes rules for docs/permissions.md', () => {
    expect(
      describeObjectRules([
        { rule: 'self', field: 'owner.id' },
        { rule: 'custodian', field: 'plantId', record: 'plant' },
      ]),
    ).toBe('self (owner.id); custodian of plant (plantId)');
    expect(describeObjectRules({ rule: 'own' })).toBe('own');
    expect(
      describeObjectRules({ rule: 'org-role', field: 'organizationId', record: 'organization', role: 'manager' }),
    ).toBe('org-role:manager of organization (organizationId)');
  });

  it('refuses an org-role rule without a known organization role', () => {
    expect(objectRulesProblem({ rule: 'org-role', field: 'organizationId', record: 'organization' })).toMatch(
      /no organization role/,
    );
    expect(
      objectRulesProblem({ rule: 'org-role', field: 'organizationId', record: 'organization', role: 'viewer' }),
    ).toBeNull();
  });

  it('lets a self field name the caller, refuses another account, and lets an ADMIN name anyone', () => {
    const rules = [{ rule: 'self', field: 'owner.id' }] as const;
    expect(() => assertSelfRules(rules, alice, request({ body: { owner: { id: 'usr_alice' } } }))).not.toThrow();
    // Absent: nothing is named, the service's own default (the caller) applies.
    expect(() => assertSelfRules(rules, alice, request({ body: {} }))).not.toThrow();
    let refused: unknown;
    try {
      assertSelfRules(rules, alice, request({ body: { owner: { id: 'usr_bob' } } }));
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'FORBIDDEN', details: { field: 'owner.id', reason: 'not-self' } });
    const admin = { id: 'usr_admin', role: 'ADMIN' } as const;
    expect(() => assertSelfRules(rules, admin, request({ body: { owner: { id: 'usr_bob' } } }))).not.toThrow();
  });

  it('reads a self field from the path and the query too', () => {
    const rules = { rule: 'self', field: 'userId' } as const;
    expect(() => assertSelfRules(rules, alice, request({ params: { userId: 'usr_bob' } }))).toThrow(AppError);
    expect(() => assertSelfRules(rules, alice, request({ query: { userId: 'usr_bob' } }))).toThrow(AppError);
    expect(() => assertSelfRules(rules, alice, request({ params: { userId: 'usr_alice' } }))).not.toThrow();
  });
});
