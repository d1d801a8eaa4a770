import { type Endpoint, JsonText } from '@rootline/bus';
import {
  defineSubject,
  NEARBY_LIMITS,
  PAGE_DEFAULTS,
  PageQuery,
  plantNearby,
  plantRegister,
} from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { createLogger, handle, toEndpoint } from '../src/index.js';

const log = createLogger('test', 'silent');

/** The endpoint's reply as its callers read it: success replies leave the service as JSON text. */
async function answer(endpoint: Endpoint, payload: unknown): Promise<unknown> {
  const reply = await endpoint.handler(payload, {});
  return reply instanceof JsonText ? JSON.parse(reply.text) : reply;
}

const list = defineSubject({
  subject: 'notify.item.list',
  request: Type.Object({ ...PageQuery.properties, kind: Type.Optional(Type.String({ default: 'all', maxLength: 9 })) }),
  reply: Type.Unknown(),
  summary: 'test list',
});

describe('toEndpoint', () => {
  it('fills in the contract defaults for a bus caller that omits them (handlers used to repeat them)', async () => {
    const seen: unknown[] = [];
    const endpoint = toEndpoint(
      handle(list, async (input) => {
        seen.push(input);
        return null;
      }),
      log,
    );
    expect(await answer(endpoint, { page: 3 })).toEqual({ ok: true, shaped: true, data: null });
    expect(seen).toEqual([{ page: 3, limit: 20, kind: 'all' }]);
  });

  it('still refuses what the contract does not allow, after defaults', async () => {
    const endpoint = toEndpoint(
      handle(list, async () => null),
      log,
    );
    expect(await answer(endpoint, { limit: 1000 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^limit: /) },
    });
  });
});

describe('handle', () => {
  it('types the properties with a contract default as present in the handler input', async () => {
    const seen: number[] = [];
    const endpoint = toEndpoint(
      handle(plantNearby, async (input) => {
        // No fallback needed: `radius`, `page` and `limit` are numbers here, not `number | undefined`.
        const radius: number = input.radius;
        seen.push(radius, input.page, input.limit);
        return {
          items: [],
          pagination: { page: input.page, limit: input.limit, total: 0, totalPages: 0, totalIsEstimate: false },
        };
      }),
      log,
    );
    expect(await answer(endpoint, { lat: 1, lon: 2 })).toMatchObject({ ok: true });
    expect(seen).toEqual([NEARBY_LIMITS.defaultRadiusKm, PAGE_DEFAULTS.page, PAGE_DEFAULTS.limit]);
  });
});

describe('text checks on the bus (a caller that skips the gateway)', () => {
  const register = toEndpoint(
    handle(plantRegister, async () => ({ id: 'plt_0000000000', blockHash: 'a'.repeat(64), timestamp: '' })),
    log,
  );
  const input = {
    commonName: 'Tomato',
    location: { latitude: 1, longitude: 2 },
    owner: { id: 'usr_1', name: 'Ada' },
  };

  it.each([
    ['U+0000', { commonName: 'a\u0000' }, 'commonName'],
    ['a lone surrogate', { commonName: '\ud800' }, 'commonName'],
    ['a blank name', { owner: { id: 'usr_1', name: ' \t' } }, 'owner.name'],
  ])('refuses %s before the handler runs, naming the field', async (_, change, field) => {
    const reply = await answer(register, { ...input, ...change });
    expect(reply).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    expect((reply as { error: { message: string } }).error.message.startsWith(`${field}:`)).toBe(true);
  });

  it('accepts a surrogate pair (an emoji), as the gateway does', async () => {
    expect(await answer(register, { ...input, commonName: 'Tomato \u{1F345}' })).toMatchObject({ ok: true });
  });
});
