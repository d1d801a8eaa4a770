import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

async function registered(email: string, name: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'correct horse battery staple', name },
  });
  return res.json().data.id;
}

describe('display names of accounts by id', () => {
  it('names the accounts asked for, in the order asked, to a visitor, and leaves out unknown ids', async () => {
    const ada = await registered('ada.people@example.org', 'Ada Grower');
    const bo = await registered('bo.people@example.org', 'Bo Buyer');
    const res = await app.inject({ url: `/api/people?ids=${bo},usr_nobody,${ada},${bo}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: [
        { id: bo, name: 'Bo Buyer' },
        { id: ada, name: 'Ada Grower' },
      ],
      pagination: { page: 1, total: 2 },
    });
    // Only the name: never the email address or the role.
    expect(JSON.stringify(res.json().data)).not.toMatch(/example\.org|USER/);
  });

  it('refuses a list that is not ids, naming the field', async () => {
    const res = await app.inject({ url: '/api/people?ids=a%20b' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe('querystring/ids');
  });
});
