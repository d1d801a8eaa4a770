import { connect } from 'node:net';
import { service as chainMiner } from '@rootline/chain-miner';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let p: TestPlatform;
let grower: string;
beforeAll(async () => {
  p = await startTestPlatform([chainMiner, plants], { CHAIN_DIFFICULTY: '8' });
  grower = await p.token('GROWER', 'usr_test');
});
afterAll(async () => p?.stop());

async function ledgerSize(): Promise<number> {
  const rows = (await p.database.db.execute(
    sql`select (select count(*) from chain.transactions) + (select count(*) from chain.mempool) as n`,
  )) as unknown as { n: string }[];
  return Number(rows[0]?.n);
}

const register = (body: unknown) => p.http('POST', '/api/plants/register', { token: grower, body });

describe('bad text never reaches the database (it was a 500 from jsonb, and an orphan ledger transaction)', () => {
  it.each([
    ['U+0000 in commonName', { commonName: 'Toma\u0000to' }, 'body/commonName'],
    ['a lone surrogate in commonName', { commonName: 'Toma\ud800to' }, 'body/commonName'],
    ['a whitespace-only commonName', { commonName: '   ' }, 'body/commonName'],
    ['a lone surrogate in the owner name', { owner: { id: 'usr_test', name: '\udfff' } }, 'body/owner/name'],
    ['U+0000 in the city', { location: { latitude: 1, longitude: 2, city: '\u0000' } }, 'body/location/city'],
  ])('refuses %s with 400 VALIDATION_ERROR naming the field, recording nothing', async (_, change, field) => {
    const before = await ledgerSize();
    const res = await register({ ...plantInput(), ...change });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect((res.body as { error: { message: string } }).error.message.startsWith(field)).toBe(true);
    expect(await ledgerSize()).toBe(before);
  });

  it('still accepts text with characters outside the basic plane', async () => {
    const res = await register({ ...plantInput(), commonName: 'Tomato \u{1F345}' });
    expect(res.status).toBe(201);
  });
});

describe('numeric parameters fit their columns', () => {
  it('refuses verify from=2147483648 with 400 (it was a 500 integer out of range) and accepts the largest height', async () => {
    const over = await p.http('GET', '/api/chain/verify?from=2147483648');
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', message: 'querystring/from must be <= 2147483647' },
    });
    const max = await p.http('GET', '/api/chain/verify?from=2147483647');
    expect(max.status).toBe(200);
    expect(max.body).toMatchObject({ data: { checkedBlocks: 0 } });
  });

  it('answers nearby lat=1e-300&lon=1e-300 (it was a 500 floating underflow), finding a plant stored there as 0', async () => {
    const created = await register({ ...plantInput(), location: { latitude: 1e-300, longitude: -1e-300 } });
    expect(created.status).toBe(201);
    const id = (created.body as { data: { id: string } }).data.id;
    const near = await p.http('GET', '/api/plants/nearby?lat=1e-300&lon=1e-300&radius=1', { token: grower });
    expect(near.status).toBe(200);
    const items = (near.body as { data: { id: string; distanceKm: number; location: unknown }[] }).data;
    expect(items.find((i) => i.id === id)).toMatchObject({ distanceKm: 0, location: { latitude: 0, longitude: 0 } });
    const beside = await p.http('GET', '/api/plants/nearby?lat=0.0000001&lon=1e-300&radius=1', { token: grower });
    expect(beside.status).toBe(200);
  });
});

describe('requests the routes do not describe', () => {
  it('answers TRACE on an existing path with 405 METHOD_NOT_ALLOWED and Allow (it was 404)', async () => {
    const res = await p.http('TRACE', '/api/plants/network', { token: grower });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'METHOD_NOT_ALLOWED' } });
    const post = await p.http('POST', '/api/plants/nearby', { token: grower, body: {} });
    expect(post.status).toBe(405);
    expect((await p.http('TRACE', '/api/nowhere')).status).toBe(404);
  });

  it('refuses an unknown query parameter, naming it (it was accepted silently)', async () => {
    const res = await p.http('GET', '/api/plants/nearby?lat=1&lon=2&radious=5', { token: grower });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', message: 'querystring/radious is not an accepted property' },
    });
  });

  it('refuses unknown query parameters on the gateway’s own operations too', async () => {
    const res = await p.http('GET', '/api/auth/session?expand=all', { token: grower });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', message: 'querystring/expand is not an accepted property' },
    });
    expect((await p.http('GET', '/api/auth/session', { token: grower })).status).toBe(200);
  });
});

describe('rules the server enforced without stating them are in the schema', () => {
  it('search q needs a letter or digit, refused by the schema', async () => {
    const res = await p.http('GET', '/api/plants/search?q=%20!!%20', { token: grower });
    expect(res.status).toBe(400);
    expect((res.body as { error: { message: string } }).error.message).toMatch(
      /^querystring\/q must match format "letter-or-digit"/,
    );
    expect((await p.http('GET', '/api/plants/search?q=%C3%A9', { token: grower })).status).toBe(200);
  });

  it('a new password has at least 10 characters', async () => {
    const res = await p.http('POST', '/api/auth/register', {
      body: { email: 'short@example.org', password: 'abc123XYZ', name: 'Short' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', message: 'body/password must NOT have fewer than 10 characters' },
    });
  });

  it('callbackUrl must be a path on this site', async () => {
    const res = await p.http('GET', '/api/auth/signin/github?callbackUrl=https://evil.example/');
    expect(res.status).toBe(400);
    expect((res.body as { error: { message: string } }).error.message).toMatch(
      /^querystring\/callbackUrl must match pattern/,
    );
  });
});

describe('client errors over a real socket get the envelope', () => {
  let port: number;
  beforeAll(async () => {
    await p.app.listen({ port: 0, host: '127.0.0.1' });
    port = (p.app.server.address() as { port: number }).port;
  });

  /** Sends raw bytes and returns the whole answer once the server closes the connection. */
  function raw(bytes: string): Promise<{ status: number; headers: string; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        data += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => {
        const [head = '', body = ''] = data.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), headers: head, body });
      });
      socket.write(bytes);
    });
  }

  it('answers a URL over 16 KB with 431 HEADERS_TOO_LARGE in the envelope (it was a bare 431)', async () => {
    const res = await raw(`GET /api/plants/search?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, data: null, error: { code: 'HEADERS_TOO_LARGE' } });
  });

  it('answers malformed HTTP with 400 VALIDATION_ERROR in the envelope (it was {"error":"Bad Request"})', async () => {
    const res = await raw('GET / HTTP/1.1\r\nHost x\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      success: false,
      data: null,
      error: { code: 'VALIDATION_ERROR', message: 'Malformed HTTP request' },
    });
  });
});
