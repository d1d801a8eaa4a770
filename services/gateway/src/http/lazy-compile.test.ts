import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { compiledOnFirstUse, lazySerializers } from './lazy-compile.js';
import { requestValidatorCompiler } from './validation.js';

async function app() {
  const f = Fastify({ schemaController: lazySerializers });
  f.setValidatorCompiler(compiledOnFirstUse(requestValidatorCompiler()));
  f.post(
    '/echo',
    {
      schema: {
        body: { type: 'object', properties: { n: { type: 'integer', maximum: 9 } }, required: ['n'] },
        response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    },
    async (req) => ({ ...(req.body as object), secret: 'not declared' }),
  );
  await f.ready();
  return f;
}

describe('validators and serializers compiled on first use', () => {
  it('refuse invalid input with the validator errors, on the first request and on later ones', async () => {
    const f = await app();
    for (let i = 0; i < 2; i++) {
      const res = await f.inject({ method: 'POST', url: '/echo', payload: { n: 42 } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('body/n must be <= 9');
    }
    await f.close();
  });

  it('still write only the declared properties of an answer', async () => {
    const f = await app();
    for (let i = 0; i < 2; i++) {
      const res = await f.inject({ method: 'POST', url: '/echo', payload: { n: 1 } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ n: 1 });
    }
    await f.close();
  });
});
