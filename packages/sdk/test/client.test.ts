import { describe, expect, it } from 'vitest';
import { createRootline, paginate, RootlineError, withRetry } from '../src/index.js';

/** A fetch that records requests and answers with `answer(request)`. */
function fakeFetch(answer: (req: Request, n: number) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const fetch = async (req: Request) => {
    requests.push(req.clone());
    return answer(req, requests.length);
  };
  return { fetch, requests };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const ok = (data: unknown) => json({ success: true, data, error: null });
const plantBody = {
  commonName: 'Basil',
  location: { latitude: 48.85, longitude: 2.35 },
  owner: { id: 'usr_1', name: 'Ada' },
};

describe('createRootline', () => {
  it('sends the bearer token and a fresh Idempotency-Key on each POST, none on GET', async () => {
    const f = fakeFetch(() => ok({ id: 'plt_1' }));
    const client = createRootline({ baseUrl: 'http://api.test/', token: 'tok', fetch: f.fetch });
    await client.POST('/api/plants/register', { body: plantBody });
    await client.POST('/api/plants/register', { body: plantBody });
    await client.GET('/api/plants/{plantId}', { params: { path: { plantId: 'plt_1' } } });
    const [a, b, c] = f.requests;
    expect(a!.url).toBe('http://api.test/api/plants/register');
    expect(a!.headers.get('authorization')).toBe('Bearer tok');
    expect(a!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b!.headers.get('idempotency-key')).not.toBe(a!.headers.get('idempotency-key'));
    expect(c!.url).toBe('http://api.test/api/plants/plt_1');
    expect(c!.headers.get('idempotency-key')).toBeNull();
  });

  it('acts for the organization the actAs option names at the time of each request, and for nobody without it', async () => {
    const f = fakeFetch(() => ok({}));
    let acting: string | null = 'org_01HZX3K6Q2W8N4B7T5R9V0C1MD';
    const client = createRootline({ baseUrl: 'http://api.test', token: 'tok', fetch: f.fetch, actAs: () => acting });
    await client.POST('/api/plants/register', { body: plantBody });
    await client.GET('/api/organizations/mine', { headers: { 'Rootline-Act-As': '' } });
    acting = null;
    await client.GET('/api/plants/{plantId}', { params: { path: { plantId: 'plt_1' } } });
    expect(f.requests.map((r) => r.headers.get('rootline-act-as'))).toEqual([
      'org_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      null,
      null,
    ]);
  });

  it('keeps a key the caller gives', async () => {
    const f = fakeFetch(() => ok({}));
    const client = createRootline({ baseUrl: 'http://api.test', fetch: f.fetch });
    await client.POST('/api/plants/register', {
      body: plantBody,
      headers: { 'Idempotency-Key': 'my-own-key-0123456789' },
    });
    expect(f.requests[0]!.headers.get('idempotency-key')).toBe('my-own-key-0123456789');
    expect(f.requests[0]!.headers.get('authorization')).toBeNull();
  });

  it('signIn keeps the session token for later calls', async () => {
    const f = fakeFetch((req) =>
      req.url.endsWith('/signin')
        ? ok({ token: 'jwt.session', expiresAt: '2026-02-01T00:00:00.000Z', user: {} })
        : ok({}),
    );
    const client = createRootline({ baseUrl: 'http://api.test', fetch: f.fetch });
    const session = await client.signIn('ada@example.org', 'pw');
    expect(session.token).toBe('jwt.session');
    expect(client.token).toBe('jwt.session');
    expect(await f.requests[0]!.json()).toEqual({ email: 'ada@example.org', password: 'pw' });
    await client.GET('/api/auth/session');
    expect(f.requests[1]!.headers.get('authorization')).toBe('Bearer jwt.session');
  });

  it('signIn throws the API error', async () => {
    const f = fakeFetch(() =>
      json({ success: false, data: null, error: { code: 'UNAUTHORIZED', message: 'Wrong email or password' } }, 401),
    );
    const client = createRootline({ baseUrl: 'http://api.test', fetch: f.fetch });
    const err = await client.signIn('a@b.c', 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RootlineError);
    expect(err).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: 'Wrong email or password' });
  });

  it('cookie mode: fetches the CSRF token once and sends it on state-changing requests only', async () => {
    const f = fakeFetch((req) => (req.url.endsWith('/api/auth/csrf') ? ok({ csrfToken: 'csrf-1' }) : ok({})));
    const client = createRootline({ baseUrl: 'http://api.test', credentials: 'include', fetch: f.fetch });
    await client.GET('/api/auth/session');
    await client.POST('/api/plants/register', { body: plantBody });
    await client.DELETE('/api/auth/tokens/{tokenId}', { params: { path: { tokenId: 'tok_1' } } });
    expect(f.requests.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.headers.get('x-csrf-token')}`)).toEqual([
      'GET /api/auth/session null',
      'GET /api/auth/csrf null',
      'POST /api/plants/register csrf-1',
      'DELETE /api/auth/tokens/tok_1 csrf-1',
    ]);
    expect(f.requests.every((r) => r.headers.get('authorization') === null)).toBe(true);
  });

  it('cookie mode: asks again after sign-in and while there is no session', async () => {
    let csrf: string | null = null;
    const f = fakeFetch((req) => {
      const path = new URL(req.url).pathname;
      if (path === '/api/auth/csrf') return ok({ csrfToken: csrf });
      if (path === '/api/auth/signin') {
        csrf = 'csrf-after-signin';
        return ok({ token: 'jwt', expiresAt: '2026-02-01T00:00:00.000Z', user: {} });
      }
      return ok({});
    });
    const client = createRootline({ baseUrl: 'http://api.test', credentials: 'include', fetch: f.fetch });
    await client.signIn('ada@example.org', 'pw');
    await client.POST('/api/plants/register', { body: plantBody });
    expect(client.token).toBeUndefined();
    const sent = f.requests.filter((r) => r.url.endsWith('/api/plants/register'))[0]!;
    expect(sent.headers.get('x-csrf-token')).toBe('csrf-after-signin');
  });
  it('cookie mode: asks for the CSRF token again after a request that could not reach the API', async () => {
    let reachable = false;
    const f = fakeFetch((req) => {
      if (!reachable) throw new TypeError('Failed to fetch');
      return req.url.endsWith('/api/auth/csrf') ? ok({ csrfToken: 'csrf-2' }) : ok({});
    });
    const client = createRootline({ baseUrl: 'http://api.test', credentials: 'include', fetch: f.fetch });
    await expect(client.POST('/api/plants/register', { body: plantBody })).rejects.toThrow('Failed to fetch');
    reachable = true;
    await client.POST('/api/plants/register', { body: plantBody });
    const sent = f.requests.filter((r) => r.url.endsWith('/api/plants/register')).at(-1)!;
    expect(sent.headers.get('x-csrf-token')).toBe('csrf-2');
  });
});

describe('withRetry', () => {
  it('retries with the same Idempotency-Key and answers the first non-retryable result', async () => {
    const f = fakeFetch((_req, n) =>
      n === 1
        ? json({ success: false, data: null, error: { code: 'UNAVAILABLE', message: 'x' } }, 503, {
            'retry-after': '0',
          })
        : n === 2
          ? json({ success: false, data: null, error: { code: 'DUPLICATE', message: 'still in progress' } }, 409)
          : json({ success: true, data: { id: 'plt_1' }, error: null }, 201),
    );
    const client = createRootline({ baseUrl: 'http://api.test', fetch: f.fetch });
    const result = await withRetry((headers) => client.POST('/api/plants/register', { body: plantBody, headers }), {
      delayMs: 1,
    });
    expect(result.response.status).toBe(201);
    const keys = f.requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('does not retry a plain conflict or a client error', async () => {
    const f = fakeFetch(() =>
      json({ success: false, data: null, error: { code: 'DUPLICATE', message: 'An account exists' } }, 409),
    );
    const client = createRootline({ baseUrl: 'http://api.test', fetch: f.fetch });
    const result = await withRetry((headers) =>
      client.POST('/api/auth/register', { body: { email: 'a@b.c', password: 'x', name: 'A' }, headers }),
    );
    expect(result.response.status).toBe(409);
    expect(f.requests).toHaveLength(1);
  });
});

describe('paginate', () => {
  it('reads page after page until totalPages', async () => {
    const f = fakeFetch((req) => {
      const page = Number(new URL(req.url).searchParams.get('page'));
      const items = page === 3 ? [{ id: 'p5' }] : [{ id: `p${2 * page - 1}` }, { id: `p${2 * page}` }];
      return json({ success: true, data: items, error: null, pagination: { page, limit: 2, total: 5, totalPages: 3 } });
    });
    const client = createRootline({ baseUrl: 'http://api.test', fetch: f.fetch });
    const ids: string[] = [];
    for await (const plant of paginate(client, '/api/plants/search', { query: { q: 'basil', limit: 2 } })) {
      ids.push(plant.id);
    }
    expect(ids).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(f.requests.map((r) => new URL(r.url).search)).toEqual([
      '?q=basil&limit=2&page=1',
      '?q=basil&limit=2&page=2',
      '?q=basil&limit=2&page=3',
    ]);
  });

  it('throws the API error of a failed page', async () => {
    const f = fakeFetch(() =>
      json({ success: false, data: null, error: { code: 'VALIDATION_ERROR', message: 'bad limit' } }, 400),
    );
    const client = createRootline({ baseUrl: 'http://api.test', fetch: f.fetch });
    const read = async () => {
      for await (const _ of paginate(client, '/api/plants/search', { query: { q: 'basil', limit: 2 } })) {
        // nothing
      }
    };
    await expect(read()).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });
});
